package io.vrmq.broker.http;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.admin.BrokerConfigText;
import io.vrmq.broker.metrics.BrokerMetrics;
import io.vrmq.store.StoreStats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /health}, {@code /api/v1/broker/runtime} (put/get rates, store figures, flush latency, long-poll holds,
 * connections), {@code /api/v1/broker/config} (the effective settings as GET_BROKER_CONFIG shows them, secrets
 * left out) and {@code /api/v1/broker/ha} (master/slave replication). Event loop; runtime reads the store's figures on the reader pool.
 */
final class BrokerRoutes {
    /** RocketMQ's tps windows: 10 seconds, 1 minute, 10 minutes. */
    private static final long[] RATE_WINDOWS_MS = {10_000, 60_000, 600_000};
    private static final String[] RATE_WINDOW_NAMES = {"10s", "1m", "10m"};

    private final BrokerContext broker;
    private final HttpReplies replies;
    private final long bootTimestampMs;

    BrokerRoutes(BrokerContext broker, HttpReplies replies, long bootTimestampMs) {
        this.broker = broker;
        this.replies = replies;
        this.bootTimestampMs = bootTimestampMs;
    }

    void mount(Router router) {
        router.get("/health").handler(this::health);
        router.get("/api/v1/broker/runtime").handler(this::runtime);
        router.get("/api/v1/broker/config").handler(this::config);
        router.get("/api/v1/broker/ha").handler(this::replication);
    }

    /** Role and replication progress: the slaves and how far behind each is (master), the master link (slave). */
    private void replication(RoutingContext context) {
        replies.send(context, 200, broker.replication().status());
    }

    private void health(RoutingContext context) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("status", "UP");
        view.put("brokerName", broker.config().brokerName());
        view.put("brokerId", broker.role().current().brokerId());
        view.put("brokerAddr", broker.identity().brokerAddr());
        view.put("topics", broker.topics().all().size());
        replies.send(context, 200, view);
    }

    private void runtime(RoutingContext context) {
        long nowMs = System.currentTimeMillis();
        BrokerMetrics metrics = broker.metrics();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("brokerName", broker.config().brokerName());
        view.put("brokerAddr", broker.identity().brokerAddr());
        view.put("brokerRole", broker.role().current().brokerRole());
        view.put("bootTimestamp", bootTimestampMs);
        view.put("uptimeMs", nowMs - bootTimestampMs);
        view.put("putTps", rates(nowMs, true));
        view.put("getTps", rates(nowMs, false));
        view.put("putMessagesTotal", metrics.putTotal());
        view.put("getMessagesTotal", metrics.getTotal());
        view.put("heldPulls", metrics.heldPulls());
        view.put("connections", metrics.connections());
        replies.reply(context, broker.store().read(() -> broker.store().store().stats()).map(stats -> {
            view.put("store", storeView(stats));
            return view;
        }));
    }

    private Map<String, Double> rates(long nowMs, boolean isPut) {
        Map<String, Double> rates = new LinkedHashMap<>();
        for (int window = 0; window < RATE_WINDOWS_MS.length; window++) {
            BrokerMetrics metrics = broker.metrics();
            rates.put(RATE_WINDOW_NAMES[window], isPut ? metrics.putPerSecond(nowMs, RATE_WINDOWS_MS[window])
                : metrics.getPerSecond(nowMs, RATE_WINDOWS_MS[window]));
        }
        return rates;
    }

    private static Map<String, Object> storeView(StoreStats stats) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("commitLogMinOffset", stats.commitLogMinOffset());
        view.put("commitLogMaxOffset", stats.commitLogMaxOffset());
        view.put("commitLogFlushedOffset", stats.commitLogFlushedOffset());
        view.put("dispatchedOffset", stats.dispatchedOffset());
        view.put("commitLogSizeBytes", stats.commitLogSizeBytes());
        view.put("commitLogSegmentCount", stats.commitLogSegmentCount());
        view.put("storedBytes", stats.commitLogMaxOffset() - stats.commitLogMinOffset());
        view.put("diskUsedRatio", stats.diskUsedPercent() / 100.0);
        view.put("readOnly", stats.isReadOnly());
        view.put("flushBehindBytes", Math.max(0, stats.commitLogMaxOffset() - stats.commitLogFlushedOffset()));
        view.put("dispatchBehindBytes", Math.max(0, stats.commitLogMaxOffset() - stats.dispatchedOffset()));
        view.put("flushCount", stats.forceCount());
        view.put("flushLastLatencyMicros", stats.lastForceMicros());
        view.put("flushMaxLatencyMicros", stats.maxForceMicros());
        // An estimate by RocketMQ's rule (reads within accessMessageInMemoryMaxRatio of memory are cached), not mincore.
        view.put("pageCacheHitReads", stats.pageCacheHitReads());
        view.put("pageCacheMissReads", stats.diskReads());
        view.put("pageCacheHitRatio", stats.pageCacheHitRatio());
        return view;
    }

    /** Values as JSON scalars (paths as text); adminToken never appears, only whether one is set. */
    private void config(RoutingContext context) {
        Map<String, Object> values = new TreeMap<>();
        BrokerConfigText.values(broker.config(), broker.store().store().config(), broker.role().current()).forEach((name, value) ->
            values.put(name, value instanceof Number || value instanceof Boolean ? value : String.valueOf(value)));
        values.put("adminTokenSet", !broker.config().adminToken().isEmpty());
        replies.send(context, 200, values);
    }
}
