package io.vrmq.broker.grpc;

import io.vertx.core.MultiMap;
import io.vertx.grpc.server.GrpcServerRequest;

/**
 * What every RPC carries in its headers (RocketMQ 5's x-mq-* metadata), read once per call. The client id is
 * required by Apache's proxy on every call (CLIENT_ID_REQUIRED otherwise); language and version are free text here
 * (the SDKs send values the proxy's enum lacks, such as Node's "HTTP"). Immutable.
 *
 * @param timeoutMs the call's deadline from grpc-timeout, 0 when it has none
 */
record GrpcCall(String clientId, String language, String clientVersion, String namespace, String remoteAddress,
                long timeoutMs) {
    static final String CLIENT_ID = "x-mq-client-id";
    static final String LANGUAGE = "x-mq-language";
    static final String CLIENT_VERSION = "x-mq-client-version";
    static final String NAMESPACE = "x-mq-namespace";

    static GrpcCall of(GrpcServerRequest<?, ?> request) {
        MultiMap headers = request.headers();
        String remote = request.connection() == null || request.connection().remoteAddress() == null ? ""
            : request.connection().remoteAddress().toString();
        return new GrpcCall(text(headers.get(CLIENT_ID)), text(headers.get(LANGUAGE)),
            text(headers.get(CLIENT_VERSION)), text(headers.get(NAMESPACE)), remote, Math.max(0, request.timeout()));
    }

    boolean hasClientId() {
        return !clientId.isEmpty();
    }

    /** The peer's host without the port, for born_host when the client sent none. */
    String remoteHost() {
        int colon = remoteAddress.lastIndexOf(':');
        return colon > 0 ? remoteAddress.substring(0, colon) : remoteAddress;
    }

    private static String text(String value) {
        return value == null ? "" : value.trim();
    }
}
