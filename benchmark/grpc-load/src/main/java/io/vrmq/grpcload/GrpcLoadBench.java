package io.vrmq.grpcload;

import io.vrmq.loadcommon.BodyHeader;
import io.vrmq.loadcommon.DeliveryTracker;
import io.vrmq.loadcommon.LatencyHistogram;
import io.vrmq.loadcommon.ProcessStats;
import io.vrmq.loadcommon.ProgressLine;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.FilterExpressionType;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.producer.Producer;

/**
 * Producer/consumer load generator for a RocketMQ 5 gRPC endpoint (Apache's proxy, or our broker's
 * grpcListenPort), driven only by the official Java SDK (rocketmq-client-java: Producer, SimpleConsumer), in plain
 * text, so both servers are measured with the same client. The topic (and {@code <topic>_warmup}) and the group
 * must exist (benchmark/load's CreateResources). One run: optionally warm up on {@code <topic>_warmup}; send --count
 * messages of --size bytes, sync or async; with --consume, --receivers threads receive and ack them through a
 * SimpleConsumer, either while sending or afterwards as a backlog; then wait a bounded time for every sent message
 * to arrive. Prints a progress line a second (what, how far, how long left) and a final JSON line (prefixed
 * "RESULT ") with send and receive throughput, send latency p50/p99/p999, end-to-end latency p50/p99, ack latency,
 * the lost and duplicated counts, and the watched broker's and proxy's CPU time and memory. Bounded in count and
 * time; stops by itself. Main thread only (the classes it starts say which threads they own).
 *
 * <pre>java -jar vrmq-grpc-load.jar --endpoints 127.0.0.1:8081 --topic T --group G --mode async --consume after</pre>
 */
public final class GrpcLoadBench {

    /** Every body starts with a {@link BodyHeader}, then filler up to --size. */
    static final int HEADER_BYTES = BodyHeader.HEADER_BYTES;

    private static final String SELF = "self";

    private GrpcLoadBench() {
    }

    public static void main(String[] args) throws Exception {
        GrpcLoadOptions options = GrpcLoadOptions.parse(args);
        long runId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        long clientCpuStartMillis = ProcessStats.cpuMillis(SELF);
        ClientServiceProvider provider = ClientServiceProvider.loadService();
        ClientConfiguration configuration = ClientConfiguration.newBuilder().setEndpoints(options.endpoints())
            .enableSsl(false).setRequestTimeout(Duration.ofMillis(options.requestTimeoutMs())).build();
        String warmupTopic = options.warmupCount() > 0 ? options.topic() + "_warmup" : null;
        Producer producer = provider.newProducerBuilder().setClientConfiguration(configuration)
            .setTopics(warmupTopic == null ? new String[] {options.topic()}
                : new String[] {options.topic(), warmupTopic}).build();
        ProgressLine progress = new ProgressLine(options.label());
        SimpleConsumer consumer = null;
        SimpleReceivers receivers = null;
        try {
            if (warmupTopic != null) {
                warmUp(producer, provider, configuration, options, warmupTopic, progress);
            }
            DeliveryTracker tracker = new DeliveryTracker(runId, options.count());
            if (options.consume().equals("concurrent")) {
                consumer = simpleConsumer(provider, configuration, options, options.topic());
                receivers = new SimpleReceivers(consumer, tracker, options);
                receivers.start();
            }
            WatchedProcess broker = new WatchedProcess(options.watchPid());
            WatchedProcess proxy = new WatchedProcess(options.proxyPid());
            broker.markStart();
            proxy.markStart();
            long consumerStartNanos = System.nanoTime();      // concurrent: counted from the start of the sends
            GrpcSendLoad load = new GrpcSendLoad(producer, provider, options, options.topic(), options.count(), runId,
                tracker);
            progress.sending(options.mode(), load, receivers == null ? null : tracker, options.size());
            GrpcSendLoad.Summary send = load.run();
            broker.markSendEnd();
            proxy.markSendEnd();
            if (options.consume().equals("after")) {
                consumerStartNanos = System.nanoTime();
                consumer = simpleConsumer(provider, configuration, options, options.topic());
                receivers = new SimpleReceivers(consumer, tracker, options);
                receivers.start();
            }
            if (receivers != null) {
                progress.draining(tracker);
                tracker.awaitDelivered(options.drainSeconds(), options.drainIdleSeconds());
            }
            broker.markDrainEnd();
            proxy.markDrainEnd();
            progress.stop();
            if (receivers != null) {
                receivers.stop(receiveTimeoutMs(options));
            }
            GrpcLoadResult result = result(options, send, receivers == null ? null : tracker, receivers,
                consumerStartNanos, broker, proxy, ProcessStats.cpuMillis(SELF) - clientCpuStartMillis);
            System.out.println("RESULT " + result.toJson());
        } finally {
            progress.stop();
            if (consumer != null) {
                consumer.close();
            }
            producer.close();
        }
    }

    /**
     * Sends --warmup-count messages the measured way to {@code <topic>_warmup} (JIT, connections, page cache). With
     * --consume concurrent, receivers of their own (same group, a SimpleConsumer of the warm-up topic alone, closed
     * afterwards) receive them while they are sent: one SimpleConsumer of both topics would spend half its receives
     * long-polling the drained warm-up topic during the measured phase.
     */
    private static void warmUp(Producer producer, ClientServiceProvider provider, ClientConfiguration configuration,
                               GrpcLoadOptions options, String topic, ProgressLine progress) throws Exception {
        boolean isConsumed = options.consume().equals("concurrent");
        DeliveryTracker tracker = isConsumed ? new DeliveryTracker(0, options.warmupCount()) : null;
        SimpleConsumer consumer = isConsumed ? simpleConsumer(provider, configuration, options, topic) : null;
        SimpleReceivers receivers = isConsumed ? new SimpleReceivers(consumer, tracker, options) : null;
        try {
            if (receivers != null) {
                receivers.start();
            }
            GrpcSendLoad warmup = new GrpcSendLoad(producer, provider, options, topic, options.warmupCount(), 0,
                tracker);
            progress.sending("warmup", warmup, tracker, options.size());
            GrpcSendLoad.Summary summary = warmup.run();
            if (receivers != null) {
                progress.draining(tracker);
                tracker.awaitDelivered(options.drainSeconds(), options.drainIdleSeconds());
                receivers.stop(receiveTimeoutMs(options));
            }
            System.out.printf("[%s warmup] %d ok, %d failed in %.1f s (first error: %s)%s%n", options.label(),
                summary.ok(), summary.errors(), summary.elapsedNanos() / 1e9, summary.firstError(),
                tracker == null ? "" : ", " + tracker.uniqueDeliveries() + " received");
        } finally {
            if (consumer != null) {
                consumer.close();
            }
        }
    }

    /** A SimpleConsumer of the existing group on one topic, every tag. */
    private static SimpleConsumer simpleConsumer(ClientServiceProvider provider, ClientConfiguration configuration,
                                                 GrpcLoadOptions options, String topic) throws Exception {
        return provider.newSimpleConsumerBuilder().setClientConfiguration(configuration)
            .setConsumerGroup(options.group()).setAwaitDuration(Duration.ofSeconds(options.awaitSeconds()))
            .setSubscriptionExpressions(Map.of(topic, new FilterExpression("*", FilterExpressionType.TAG))).build();
    }

    /** The longest a receive in progress can take: its long poll plus the request timeout. */
    private static long receiveTimeoutMs(GrpcLoadOptions options) {
        return TimeUnit.SECONDS.toMillis(options.awaitSeconds()) + options.requestTimeoutMs();
    }

    private static GrpcLoadResult result(GrpcLoadOptions options, GrpcSendLoad.Summary send, DeliveryTracker tracker,
                                         SimpleReceivers receivers, long consumerStartNanos, WatchedProcess broker,
                                         WatchedProcess proxy, long clientCpuMillis) {
        if (tracker == null) {
            return new GrpcLoadResult(options, send, -1, -1, -1, -1, -1, -1, -1, -1, -1, null, broker, proxy,
                clientCpuMillis);
        }
        long first = tracker.firstDeliveryNanos();
        long consumeNanos = first == 0 ? 0 : tracker.lastDeliveryNanos() - first;
        long consumeStartMillis = first == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(first - consumerStartNanos);
        LatencyHistogram endToEnd = tracker.endToEnd();
        return new GrpcLoadResult(options, send, tracker.uniqueDeliveries(), consumeNanos, consumeStartMillis,
            endToEnd.percentileMicros(0.50), endToEnd.percentileMicros(0.99), endToEnd.percentileMicros(0.999),
            tracker.lost(), tracker.duplicateDeliveries(), tracker.deliveredUnacknowledged(), receivers, broker,
            proxy, clientCpuMillis);
    }
}
