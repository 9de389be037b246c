package io.vrmq.namesrv.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vrmq.namesrv.route.RouteTables;
import io.vrmq.remoting.transport.RemotingObserver;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The NameServer's own meters, beside the Vert.x ones: requests by code and response code, request latency by
 * code, rejected frames, open connections, live brokers and topics. Prometheus names: {@code mq_namesrv_*}.
 * Thread-safe: called from every event loop.
 */
public final class NameServerMetrics implements RemotingObserver {
    private final MeterRegistry registry;
    private final Map<Long, Counter> requestCounters = new ConcurrentHashMap<>();
    private final Map<Integer, Timer> latencyTimers = new ConcurrentHashMap<>();
    private final Counter framesRejected;
    private final AtomicInteger connections = new AtomicInteger();

    public NameServerMetrics(MeterRegistry registry, RouteTables routes) {
        this.registry = registry;
        this.framesRejected = Counter.builder("mq.namesrv.frames.rejected")
            .description("frames that could not be trusted; their connections were closed").register(registry);
        Gauge.builder("mq.namesrv.connections", connections, AtomicInteger::get)
            .description("open remoting connections").register(registry);
        Gauge.builder("mq.namesrv.brokers.alive", routes, RouteTables::liveBrokerCount)
            .description("broker processes registered and not expired").register(registry);
        Gauge.builder("mq.namesrv.topics", routes, RouteTables::topicCount)
            .description("topics with at least one broker's queue data").register(registry);
    }

    @Override
    public void requestHandled(int requestCode, int responseCode, long nanos) {
        long key = ((long) requestCode << 32) | (responseCode & 0xFFFFFFFFL);
        requestCounters.computeIfAbsent(key, ignored -> Counter.builder("mq.namesrv.requests")
            .description("requests handled, by request code and response code")
            .tag("code", Integer.toString(requestCode))
            .tag("response_code", Integer.toString(responseCode))
            .register(registry)).increment();
        latencyTimers.computeIfAbsent(requestCode, code -> Timer.builder("mq.namesrv.request.latency")
            .description("time from request decoded to response ready, by request code")
            .tag("code", Integer.toString(code))
            .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void frameRejected(String reason) {
        framesRejected.increment();
    }

    @Override
    public void connectionOpened() {
        connections.incrementAndGet();
    }

    @Override
    public void connectionClosed() {
        connections.decrementAndGet();
    }
}
