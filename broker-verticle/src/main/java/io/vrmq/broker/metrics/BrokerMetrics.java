package io.vrmq.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.RemotingObserver;

import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * The broker's traffic meters (Prometheus names in ADMIN-API.md): messages and bytes in per topic, out per topic and
 * group, send latency, requests by code, open connections and held pulls; plus the put/get totals that the admin API
 * turns into per-second rates. Counters are cached per topic (and group) so that the send and pull paths do one map
 * look-up and two adds. Thread-safe: called from every event loop.
 */
public final class BrokerMetrics implements RemotingObserver {
    /** Samples kept for the rate windows: one a second, enough for RocketMQ's 10-minute window. */
    public static final int RATE_SAMPLES = 601;
    /** How often {@link #sampleRates} must be called: the rate windows count samples as seconds. */
    public static final long RATE_SAMPLE_INTERVAL_MS = 1_000;
    private static final String TOPIC_TAG = "topic";
    private static final String GROUP_TAG = "group";
    private static final String SEND_LATENCY_NAME = "rocketmq.send.latency";
    private static final String SEND_LATENCY_PROMETHEUS_NAME = "rocketmq_send_latency_seconds";
    private static final String SEND_LATENCY_HELP =
        "time from a send request decoded to its response ready (store and, if asked, flush)";
    private static final double[] SEND_LATENCY_QUANTILES = {0.5, 0.99, 0.999};
    /** One summary per registry, as Micrometer shares one Timer among the metrics objects of one registry. */
    private static final Map<PrometheusRegistry, LatencySummary> SEND_LATENCY_BY_REGISTRY = new WeakHashMap<>();

    private final MeterRegistry registry;
    private final Map<String, TrafficMeters> inByTopic = new ConcurrentHashMap<>();
    private final Map<String, Map<String, TrafficMeters>> outByTopicAndGroup = new ConcurrentHashMap<>();
    private final Map<Long, Counter> requestCounters = new ConcurrentHashMap<>();
    /** Send latency: our own per-thread summary on a Prometheus registry, else Micrometer's Timer. */
    private final LatencySummary sendLatency;
    private final Timer sendLatencyTimer;
    private final IntSupplier heldPulls;
    private final AtomicInteger connections = new AtomicInteger();
    private final LongAdder putTotal = new LongAdder();
    private final LongAdder getTotal = new LongAdder();
    private final RateWindow putRates = new RateWindow(RATE_SAMPLES);
    private final RateWindow getRates = new RateWindow(RATE_SAMPLES);

    public BrokerMetrics(MeterRegistry registry, IntSupplier heldPulls) {
        this.registry = registry;
        this.heldPulls = heldPulls;
        if (registry instanceof PrometheusMeterRegistry prometheus) {
            this.sendLatency = sendLatencySummary(prometheus);
            this.sendLatencyTimer = null;
        } else {
            this.sendLatency = null;
            this.sendLatencyTimer = Timer.builder(SEND_LATENCY_NAME).description(SEND_LATENCY_HELP)
                .publishPercentiles(SEND_LATENCY_QUANTILES).register(registry);
        }
        Gauge.builder("rocketmq.connections", connections, AtomicInteger::get)
            .description("open remoting connections (main and fast channel)").register(registry);
        Gauge.builder("rocketmq.pull.held", heldPulls, IntSupplier::getAsInt)
            .description("pull requests held by long polling").register(registry);
    }

    /** Where the broker's other meters (replication, controller mode) register. */
    public MeterRegistry registry() {
        return registry;
    }

    /**
     * {@code messageCount} messages of {@code bodyBytes} in all were appended for {@code topic}; counted before the
     * flush wait, so a later flush timeout still counts (the message is in the store either way).
     */
    public void messagesStored(String topic, int messageCount, long bodyBytes) {
        TrafficMeters meters = inByTopic.get(topic);
        if (meters == null) {
            meters = inByTopic.computeIfAbsent(topic, this::inMeters);
        }
        meters.add(messageCount, bodyBytes);
        putTotal.add(messageCount);
    }

    /** A pull of {@code group} found {@code messageCount} messages of {@code topic}, {@code storedBytes} shipped. */
    public void messagesPulled(String topic, String group, int messageCount, long storedBytes) {
        Map<String, TrafficMeters> byGroup = outByTopicAndGroup.get(topic);
        if (byGroup == null) {
            byGroup = outByTopicAndGroup.computeIfAbsent(topic, ignored -> new ConcurrentHashMap<>());
        }
        TrafficMeters meters = byGroup.get(group);
        if (meters == null) {
            meters = byGroup.computeIfAbsent(group, ignored -> outMeters(topic, group));
        }
        meters.add(messageCount, storedBytes);
        getTotal.add(messageCount);
    }

    @Override
    public void requestHandled(int requestCode, int responseCode, long nanos) {
        if (isSend(requestCode)) {
            if (sendLatency != null) {
                sendLatency.record(nanos);
            } else {
                sendLatencyTimer.record(nanos, TimeUnit.NANOSECONDS);
            }
        }
        long key = ((long) requestCode << 32) | (responseCode & 0xFFFFFFFFL);
        Counter counter = requestCounters.get(key);
        if (counter == null) {
            counter = requestCounters.computeIfAbsent(key, ignored -> Counter.builder("rocketmq.broker.requests")
                .description("requests handled, by request code and response code")
                .tag("code", Integer.toString(requestCode))
                .tag("response_code", Integer.toString(responseCode))
                .register(registry));
        }
        counter.increment();
    }

    @Override
    public void connectionOpened() {
        connections.incrementAndGet();
    }

    @Override
    public void connectionClosed() {
        connections.decrementAndGet();
    }

    /** Takes one sample of the put and get totals; the broker calls it once a second. */
    public void sampleRates(long nowMs) {
        putRates.sample(nowMs, putTotal.sum());
        getRates.sample(nowMs, getTotal.sum());
        if (sendLatency != null) {
            sendLatency.rotate(nowMs);
        }
    }

    /** Messages stored per second over the last {@code windowMs}. */
    public double putPerSecond(long nowMs, long windowMs) {
        return putRates.perSecond(nowMs, putTotal.sum(), windowMs);
    }

    /** Messages pulled per second over the last {@code windowMs}. */
    public double getPerSecond(long nowMs, long windowMs) {
        return getRates.perSecond(nowMs, getTotal.sum(), windowMs);
    }

    /** Messages stored per second over the last minutes, one point per {@code stepMs}, oldest first. */
    public List<RateWindow.RatePoint> putHistory(long stepMs) {
        return putRates.history(stepMs);
    }

    /** Messages pulled per second over the last minutes, one point per {@code stepMs}, oldest first. */
    public List<RateWindow.RatePoint> getHistory(long stepMs) {
        return getRates.history(stepMs);
    }

    public long putTotal() {
        return putTotal.sum();
    }

    public long getTotal() {
        return getTotal.sum();
    }

    public int connections() {
        return connections.get();
    }

    /** Pulls held by long polling now (read from another thread: may be a moment old). */
    public int heldPulls() {
        return heldPulls.getAsInt();
    }

    /**
     * The send-latency summary of this Prometheus registry, registered on first use: the names, help and quantiles
     * Micrometer's Timer had there, recorded without its three concurrent histograms ({@link LatencySummary}).
     */
    private static LatencySummary sendLatencySummary(PrometheusMeterRegistry registry) {
        synchronized (SEND_LATENCY_BY_REGISTRY) {
            return SEND_LATENCY_BY_REGISTRY.computeIfAbsent(registry.getPrometheusRegistry(), prometheus -> {
                LatencySummary summary = new LatencySummary(SEND_LATENCY_PROMETHEUS_NAME, SEND_LATENCY_HELP,
                    SEND_LATENCY_QUANTILES);
                prometheus.register(summary);
                return summary;
            });
        }
    }

    private static boolean isSend(int requestCode) {
        return requestCode == RequestCode.SEND_MESSAGE || requestCode == RequestCode.SEND_MESSAGE_V2
            || requestCode == RequestCode.SEND_BATCH_MESSAGE;
    }

    private TrafficMeters inMeters(String topic) {
        return new TrafficMeters(
            Counter.builder("rocketmq.producer.messages").description("messages stored by producers, per topic")
                .tag(TOPIC_TAG, topic).register(registry),
            Counter.builder("rocketmq.producer.bytes").description("message body bytes stored, per topic")
                .baseUnit("bytes").tag(TOPIC_TAG, topic).register(registry));
    }

    private TrafficMeters outMeters(String topic, String group) {
        return new TrafficMeters(
            Counter.builder("rocketmq.consumer.messages")
                .description("messages returned by pulls, per topic and consumer group")
                .tag(TOPIC_TAG, topic).tag(GROUP_TAG, group).register(registry),
            Counter.builder("rocketmq.consumer.bytes")
                .description("stored record bytes returned by pulls, per topic and consumer group")
                .baseUnit("bytes").tag(TOPIC_TAG, topic).tag(GROUP_TAG, group).register(registry));
    }

    /** A message counter and a byte counter that always move together. */
    private record TrafficMeters(Counter messages, Counter bytes) {
        void add(int messageCount, long byteCount) {
            messages.increment(messageCount);
            bytes.increment(byteCount);
        }
    }
}
