package io.vrmq.broker.grpc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vrmq.grpc.proto.Code;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Per-RPC meters of the gRPC endpoint: {@code mq.grpc.requests} (tags rpc, code: the RocketMQ 5 status the call
 * answered, or CANCELLED for a call the client gave up on before its answer) and {@code mq.grpc.request.latency}
 * (tag rpc), and a gauge of the clients with settings. Meters are made
 * once per rpc and code and cached. Thread-safe.
 */
final class GrpcMeters {
    /** gRPC's name for a call the client cancelled; no RocketMQ 5 code means it. */
    static final String CANCELLED = "CANCELLED";

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    GrpcMeters(MeterRegistry registry, GrpcSessions sessions) {
        this.registry = registry;
        Gauge.builder("mq.grpc.clients", sessions, table -> table.all().size())
            .description("gRPC clients whose settings the broker holds").register(registry);
    }

    void answered(String rpc, Code code, long startNanos) {
        count(rpc, code.name(), startNanos);
    }

    /** A call the client cancelled (RST_STREAM) before its answer, which was dropped. */
    void cancelled(String rpc, long startNanos) {
        count(rpc, CANCELLED, startNanos);
    }

    private void count(String rpc, String code, long startNanos) {
        counters.computeIfAbsent(rpc + '/' + code, key -> Counter.builder("mq.grpc.requests")
            .description("gRPC calls answered, by RPC and RocketMQ 5 status code").tag("rpc", rpc)
            .tag("code", code).register(registry)).increment();
        timers.computeIfAbsent(rpc, key -> Timer.builder("mq.grpc.request.latency")
            .description("time from a gRPC request to its answer").tag("rpc", rpc).register(registry))
            .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }
}
