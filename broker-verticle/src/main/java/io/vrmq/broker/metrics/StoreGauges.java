package io.vrmq.broker.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.admin.ConsumeProgress;
import io.vrmq.store.StoreStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Gauges that need the store: disk ratio, CommitLog size and offsets, dispatch backlog, flush latency, and consumer
 * lag per group and topic. The gauges read a snapshot that {@link #refresh} takes on a store reader thread (the
 * scrape handler calls it before each scrape), so a scrape never touches the store from an event loop. Lag is
 * reported for every group with committed offsets on a topic: the sum over the topic's readable queues of
 * max(0, queue max offset - committed offset). Thread-safe: the snapshot is replaced whole.
 */
public final class StoreGauges {
    private static final double MICROS_PER_SECOND = 1_000_000.0;

    private final BrokerContext broker;
    private final ConsumeProgress progress;
    private final MultiGauge consumerLag;
    private volatile StoreStats stats = new StoreStats(0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0, 0);

    public StoreGauges(BrokerContext broker, MeterRegistry registry) {
        this.broker = broker;
        this.progress = new ConsumeProgress(broker);
        this.consumerLag = MultiGauge.builder("rocketmq.consumer.lag.messages")
            .description("messages stored but not yet consumed, per consumer group and topic")
            .register(registry);
        gauge(registry, "rocketmq.store.disk.ratio", null, "used fraction of the store's disk (0-1)",
            snapshot -> snapshot.diskUsedPercent() / 100.0);
        gauge(registry, "rocketmq.store.read.only", null, "1 when the disk passed diskCriticalRatio and appends stop",
            snapshot -> snapshot.isReadOnly() ? 1 : 0);
        gauge(registry, "rocketmq.commitlog.size", "bytes", "bytes of the CommitLog segment files",
            snapshot -> snapshot.commitLogSizeBytes());
        gauge(registry, "rocketmq.commitlog.min.offset", null, "oldest commitLogOffset kept",
            snapshot -> snapshot.commitLogMinOffset());
        gauge(registry, "rocketmq.commitlog.max.offset", null, "next commitLogOffset to be written",
            snapshot -> snapshot.commitLogMaxOffset());
        gauge(registry, "rocketmq.dispatch.behind", "bytes", "CommitLog bytes not yet in the ConsumeQueues",
            snapshot -> Math.max(0, snapshot.commitLogMaxOffset() - snapshot.dispatchedOffset()));
        gauge(registry, "rocketmq.flush.behind", "bytes", "CommitLog bytes written but not yet forced to disk",
            snapshot -> Math.max(0, snapshot.commitLogMaxOffset() - snapshot.commitLogFlushedOffset()));
        gauge(registry, "rocketmq.flush.latency.last", "seconds", "duration of the latest CommitLog force",
            snapshot -> snapshot.lastForceMicros() / MICROS_PER_SECOND);
        gauge(registry, "rocketmq.flush.latency.max", "seconds", "longest CommitLog force since the store opened",
            snapshot -> snapshot.maxForceMicros() / MICROS_PER_SECOND);
        FunctionCounter.builder("rocketmq.flush.forces", this, gauges -> gauges.stats.forceCount())
            .description("CommitLog forces since the store opened").register(registry);
        gauge(registry, "rocketmq.store.pagecache.hit.ratio", null, "Share of messages read that RocketMQ's rule "
            + "(accessMessageInMemoryMaxRatio of physical memory behind the max offset) places in the page cache",
            StoreStats::pageCacheHitRatio);
    }

    /** Takes a new snapshot on the reader pool and publishes it; completes on the caller's context. */
    public Future<Void> refresh() {
        return broker.store().read(() -> {
            StoreStats snapshot = broker.store().store().stats();
            List<MultiGauge.Row<?>> lagRows = lagRows();
            stats = snapshot;
            consumerLag.register(lagRows, true);
            return (Void) null;
        });
    }

    /** Runs on a reader thread. */
    private List<MultiGauge.Row<?>> lagRows() {
        Map<String, Set<String>> topicsByGroup = broker.offsets().topicsByGroup();
        topicsByGroup.values().forEach(topics -> topics.removeIf(topic -> !broker.topics().contains(topic)));
        topicsByGroup.values().removeIf(Set::isEmpty);
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        topicsByGroup.forEach((group, topics) -> {
            Map<String, Long> lagByTopic = new TreeMap<>();
            for (ConsumeProgress.QueueProgress queue : progress.collect(group, topics)) {
                lagByTopic.merge(queue.topic(), queue.lag(), Long::sum);
            }
            lagByTopic.forEach((topic, lag) -> rows.add(MultiGauge.Row.of(Tags.of("group", group, "topic", topic),
                lag)));
        });
        return rows;
    }

    private void gauge(MeterRegistry registry, String name, String baseUnit, String description,
                       ToDoubleFunction<StoreStats> value) {
        Gauge.builder(name, this, gauges -> value.applyAsDouble(gauges.stats))
            .baseUnit(baseUnit).description(description).register(registry);
    }
}
