package io.vrmq.broker.grpc;

import io.vertx.core.MultiMap;
import io.vertx.grpc.server.GrpcServerRequest;

/**
 * What every RPC carries in its headers (RocketMQ 5's x-mq-* metadata), read once per call. The client id is
 * required by Apache's proxy on every call (CLIENT_ID_REQUIRED otherwise); language and version are free text here
 * (the SDKs send values the proxy's enum lacks, such as Node's "HTTP"). Immutable.
 *
 * @param timeoutMs     the call's deadline from grpc-timeout, 0 when it has none
 * @param authorization the authorization header (ACL 2.0 signature), "" when absent; never logged
 * @param dateTime      x-mq-date-time, what the signature signs
 */
record GrpcCall(String clientId, String language, String clientVersion, String namespace, String remoteAddress,
                long timeoutMs, String authorization, String dateTime) {
    static final String CLIENT_ID = "x-mq-client-id";
    static final String LANGUAGE = "x-mq-language";
    static final String CLIENT_VERSION = "x-mq-client-version";
    static final String NAMESPACE = "x-mq-namespace";
    static final String AUTHORIZATION = "authorization";
    static final String DATE_TIME = "x-mq-date-time";

    static GrpcCall of(GrpcServerRequest<?, ?> request) {
        MultiMap headers = request.headers();
        String remote = request.connection() == null || request.connection().remoteAddress() == null ? ""
            : request.connection().remoteAddress().toString();
        return new GrpcCall(text(headers.get(CLIENT_ID)), text(headers.get(LANGUAGE)),
            text(headers.get(CLIENT_VERSION)), text(headers.get(NAMESPACE)), remote, Math.max(0, request.timeout()),
            text(headers.get(AUTHORIZATION)), text(headers.get(DATE_TIME)));
    }

    boolean hasClientId() {
        return !clientId.isEmpty();
    }

    /** The peer's host without the port, for born_host when the client sent none. */
    String remoteHost() {
        int colon = remoteAddress.lastIndexOf(':');
        return colon > 0 ? remoteAddress.substring(0, colon) : remoteAddress;
    }

    /** The peer's IP for ACL source checks: the host without port or IPv6 brackets. */
    String remoteIp() {
        String host = remoteHost();
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** Without the authorization header. */
    @Override
    public String toString() {
        return "GrpcCall[clientId=" + clientId + ", remoteAddress=" + remoteAddress + "]";
    }

    private static String text(String value) {
        return value == null ? "" : value.trim();
    }
}
