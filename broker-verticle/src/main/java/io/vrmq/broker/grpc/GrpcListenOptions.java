package io.vrmq.broker.grpc;

import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.grpc.server.GrpcServerOptions;

import java.util.concurrent.TimeUnit;

/**
 * Every option of the gRPC listener, in one place (TLS is the {@link GrpcTlsFront}'s): HTTP/2 over cleartext with prior
 * knowledge, as the SDKs' plaintext mode speaks it; streams per connection raised from HTTP/2's usual 100 (each
 * Telemetry stream and each long-polling receive holds one); flow-control windows large enough for 4 MiB bodies
 * without a round trip per 64 KiB; the largest message Vert.x accepts raised from its 256 KiB; the rapid-reset guard
 * raised from Vert.x's 200 resets per 30 s (an SDK cancels every call that misses its deadline, so an overloaded
 * broker saw its busiest connections closed) to grpcRstFloodMaxPerWindow. Stateless.
 */
final class GrpcListenOptions {
    /** Per stream: what the peer may send before it must wait for our window update (grpc-java's default). */
    private static final int STREAM_WINDOW_BYTES = 1024 * 1024;
    /** Per connection, shared by its streams. */
    private static final int CONNECTION_WINDOW_BYTES = 16 * 1024 * 1024;

    private GrpcListenOptions() {
    }

    static HttpServerOptions http(GrpcConfig config, String host) {
        return new HttpServerOptions()
            .setHost(host)
            .setHttp2ClearTextEnabled(true)
            .setTcpNoDelay(true)
            .setReuseAddress(true)
            .setCompressionSupported(false)
            .setHttp2ConnectionWindowSize(CONNECTION_WINDOW_BYTES)
            .setHttp2RstFloodMaxRstFramePerWindow(config.rstFloodMaxPerWindow())
            .setHttp2RstFloodWindowDuration(config.rstFloodWindowSeconds())
            .setHttp2RstFloodWindowDurationTimeUnit(TimeUnit.SECONDS)
            .setInitialSettings(new Http2Settings()
                .setMaxConcurrentStreams(config.grpcMaxConcurrentStreams())
                .setInitialWindowSize(STREAM_WINDOW_BYTES));
    }

    /** The HTTP server behind the {@link GrpcTlsFront}: each connection starts with the front's PROXY line. */
    static HttpServerOptions behindFront(HttpServerOptions options) {
        return options.setUseProxyProtocol(true);
    }

    static GrpcServerOptions grpc(GrpcConfig config) {
        return new GrpcServerOptions()
            .setMaxMessageSize(config.grpcMaxInboundMessageSize())
            // Deadlines are ours to enforce: a receive sizes its long poll from the call's timeout.
            .setScheduleDeadlineAutomatically(false);
    }
}
