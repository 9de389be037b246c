package io.vrmq.controller.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.vrmq.remoting.transport.RemotingObserver;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The controller's meters (Prometheus names {@code mq_controller_*}): elections by result (RocketMQ's labels
 * new_master_elected, keep_current_master, no_master_elected), role-change notices sent, Raft leader changes seen,
 * whether this node is the leader, SyncStateSet size per broker set, replica lag in bytes behind the master, and
 * requests by code like the other roles. Thread-safe: called from the event loop and (leader changes) Ratis threads.
 */
public final class ControllerMetrics implements RemotingObserver {
    public static final String NEW_MASTER_ELECTED = "new_master_elected";
    public static final String KEEP_CURRENT_MASTER = "keep_current_master";
    public static final String NO_MASTER_ELECTED = "no_master_elected";

    private final MeterRegistry registry;
    private final Map<Long, Counter> requestCounters = new ConcurrentHashMap<>();
    private final Map<Integer, Timer> latencyTimers = new ConcurrentHashMap<>();
    private final Counter framesRejected;
    private final Counter leaderChanges;
    private final AtomicInteger connections = new AtomicInteger();
    private final MultiGauge syncStateSetSizes;
    private final MultiGauge replicaLagBytes;

    public ControllerMetrics(MeterRegistry registry, BooleanSupplier isLeader) {
        this.registry = registry;
        this.framesRejected = Counter.builder("mq.controller.frames.rejected")
            .description("frames that could not be trusted; their connections were closed").register(registry);
        this.leaderChanges = Counter.builder("mq.controller.leader.changes")
            .description("changes of the controller's Raft leader seen by this node").register(registry);
        Gauge.builder("mq.controller.connections", connections, AtomicInteger::get)
            .description("open remoting connections").register(registry);
        Gauge.builder("mq.controller.is.leader", () -> isLeader.getAsBoolean() ? 1 : 0)
            .description("1 while this node is the ready Raft leader").register(registry);
        this.syncStateSetSizes = MultiGauge.builder("mq.controller.sync.state.set.size")
            .description("replicas in the SyncStateSet, per broker set").register(registry);
        this.replicaLagBytes = MultiGauge.builder("mq.controller.replica.lag.bytes")
            .description("bytes a replica's max offset is behind its master's, from their heartbeats")
            .baseUnit("bytes").register(registry);
    }

    /** An election ended with {@code result} ({@link #NEW_MASTER_ELECTED} ...). */
    public void electionDone(String clusterName, String brokerName, String result) {
        Counter.builder("mq.controller.elections")
            .description("master elections, by result")
            .tags(Tags.of("cluster", String.valueOf(clusterName), "broker_set", brokerName, "result", result))
            .register(registry).increment();
    }

    public void roleChangeNoticeSent(String brokerName) {
        Counter.builder("mq.controller.role.change.notices")
            .description("NOTIFY_BROKER_ROLE_CHANGED (1008) sent to brokers")
            .tag("broker_set", brokerName).register(registry).increment();
    }

    public void leaderChanged() {
        leaderChanges.increment();
    }

    /** Replaces the per-set and per-replica gauges with the latest values. */
    public void refreshGroups(List<GroupSample> samples) {
        syncStateSetSizes.register(samples.stream().map(sample -> MultiGauge.Row.of(
            Tags.of("broker_set", sample.brokerName()), sample.syncStateSetSize())).toList(), true);
        replicaLagBytes.register(samples.stream().flatMap(sample -> sample.lagBytesByBrokerId().entrySet().stream()
            .map(lag -> MultiGauge.Row.of(Tags.of("broker_set", sample.brokerName(), "broker_id",
                Long.toString(lag.getKey())), lag.getValue()))).toList(), true);
    }

    @Override
    public void requestHandled(int requestCode, int responseCode, long nanos) {
        long key = ((long) requestCode << 32) | (responseCode & 0xFFFFFFFFL);
        requestCounters.computeIfAbsent(key, ignored -> Counter.builder("mq.controller.requests")
            .description("requests handled, by request code and response code")
            .tag("code", Integer.toString(requestCode))
            .tag("response_code", Integer.toString(responseCode))
            .register(registry)).increment();
        latencyTimers.computeIfAbsent(requestCode, code -> Timer.builder("mq.controller.request.latency")
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

    /** One broker set's numbers for the gauges. */
    public record GroupSample(String brokerName, int syncStateSetSize, Map<Long, Long> lagBytesByBrokerId) {
    }
}
