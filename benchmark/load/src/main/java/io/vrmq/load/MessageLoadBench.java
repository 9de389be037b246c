package io.vrmq.load;

import io.vrmq.loadcommon.LatencyHistogram;
import io.vrmq.loadcommon.ProcessStats;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;

/**
 * Producer/consumer load generator for a broker, driven through any NameServer with the official RocketMQ 5.5.0
 * client (DefaultMQProducer, DefaultMQPushConsumer), so ours and Apache's broker are measured with the same client.
 * One run: create the topic with --queues queues (UPDATE_AND_CREATE_TOPIC through the NameServer's TBW102 route, as
 * the client's {@code createTopic} does) and wait for its route; optionally warm up on {@code <topic>_warmup}; send
 * --count messages of --size bytes, sync or async; with --consume, a push consumer (CLUSTERING, a new group, from
 * the first offset) receives them, either while sending or afterwards as a backlog; then wait a bounded time for
 * every acknowledged message to arrive. Prints a progress line a second and a final JSON line (prefixed "RESULT ")
 * with send and consume throughput, send latency p50/p99/p999, end-to-end latency p50/p99 and the lost and
 * duplicated counts. Bounded in count and time; stops by itself.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.MessageLoadBench --namesrv 127.0.0.1:9876 --mode async --consume after</pre>
 */
public final class MessageLoadBench {

    /* Every body starts with this header, then filler up to --size:
     *  offset  size  field
     *   0       8    runId      random per run: bodies of other runs on the same topic are told apart
     *   8       8    seq        0 .. count - 1: the index into DeliveryTracker's tables
     *  16       8    sentNanos  System.nanoTime() just before send (producer and consumer share this JVM)    */
    static final int RUN_ID_OFFSET = 0, RUN_ID_BYTES = 8;
    static final int SEQ_OFFSET = RUN_ID_OFFSET + RUN_ID_BYTES, SEQ_BYTES = 8;
    static final int SENT_NANOS_OFFSET = SEQ_OFFSET + SEQ_BYTES, SENT_NANOS_BYTES = 8;
    static final int HEADER_BYTES = SENT_NANOS_OFFSET + SENT_NANOS_BYTES;

    private static final long ROUTE_TIMEOUT_MS = 30_000;
    private static final long REBALANCE_TIMEOUT_MS = 30_000;
    private static final long POLL_INTERVAL_MS = 100;
    private static final String SELF = "self";

    private MessageLoadBench() {
    }

    public static void main(String[] args) throws Exception {
        MessageLoadOptions options = MessageLoadOptions.parse(args);
        long runId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        String runTag = Long.toHexString(runId);
        long clientCpuStartMillis = ProcessStats.cpuMillis(SELF);
        DefaultMQProducer producer = new DefaultMQProducer("bench_producer_" + runTag, options.rpcHook());
        producer.setNamesrvAddr(options.namesrvAddr());
        producer.setInstanceName("bench-producer-" + runTag);
        producer.setSendMsgTimeout(options.sendTimeoutMs());
        producer.start();
        ProgressLine progress = new ProgressLine(options.label());
        DefaultMQPushConsumer consumer = null;
        try {
            createTopic(producer, options.topic(), options.queues());
            String warmupTopic = options.warmupCount() > 0 ? options.topic() + "_warmup" : null;
            if (warmupTopic != null) {
                createTopic(producer, warmupTopic, options.queues());
            }
            DeliveryTracker tracker = new DeliveryTracker(runId, options.count());
            if (options.consume().equals("concurrent")) {
                consumer = startConsumer(options, runTag, tracker, warmupTopic);
            }
            if (warmupTopic != null) {
                warmUp(producer, options, warmupTopic, progress);
            }
            String broker = options.watchPid() > 0 ? Long.toString(options.watchPid()) : null;
            long brokerCpuStart = broker == null ? -1 : ProcessStats.cpuMillis(broker);
            long replicaCpuStart = replicaCpuMillis(options);
            long consumerStartNanos = System.nanoTime();      // concurrent: counted from the start of the sends
            SendLoad load = new SendLoad(producer, options, options.topic(), options.count(), runId, tracker);
            progress.sending(options.mode(), load, consumer == null ? null : tracker, options.size());
            SendLoad.Summary send = load.run();
            long brokerCpuAfterSend = broker == null ? -1 : ProcessStats.cpuMillis(broker);
            long replicaCpuSend = options.replicaPids().isEmpty() ? -1 : replicaCpuMillis(options) - replicaCpuStart;
            if (options.consume().equals("after")) {
                consumerStartNanos = System.nanoTime();
                consumer = startConsumer(options, runTag, tracker, null);
            }
            if (consumer != null) {
                progress.draining(tracker);
                drain(tracker, options);
            }
            progress.stop();
            long brokerCpuEnd = broker == null ? -1 : ProcessStats.cpuMillis(broker);
            MessageLoadResult result = result(options, send, consumer == null ? null : tracker, consumerStartNanos,
                broker, brokerCpuStart, brokerCpuAfterSend, brokerCpuEnd, replicaCpuSend,
                ProcessStats.cpuMillis(SELF) - clientCpuStartMillis);
            System.out.println("RESULT " + result.toJson());
        } finally {
            progress.stop();
            if (consumer != null) {
                consumer.shutdown();
            }
            producer.shutdown();
        }
    }

    /**
     * Creates the topic on every master in the TBW102 route and waits until the NameServer routes all its queues.
     * Also used by {@link CreateResources} and {@link SoakBench}.
     */
    static void createTopic(DefaultMQProducer producer, String topic, int queues) throws Exception {
        producer.createTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, topic, queues, null);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ROUTE_TIMEOUT_MS);
        while (true) {
            try {
                List<MessageQueue> routed = producer.fetchPublishMessageQueues(topic);
                if (routed.size() >= queues) {
                    System.out.println("topic " + topic + ": " + routed.size() + " queues routed");
                    return;
                }
            } catch (MQClientException notYetRouted) {
                // the broker registers the new topic right after creating it; keep asking
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + topic + " not routed with " + queues + " queues within "
                    + ROUTE_TIMEOUT_MS + " ms");
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
    }

    /**
     * Sends --warmup-count messages the measured way to {@code <topic>_warmup} (JIT, connections, page cache); a
     * concurrent consumer receives them too (run id 0: not counted).
     */
    private static void warmUp(DefaultMQProducer producer, MessageLoadOptions options, String topic,
                               ProgressLine progress) throws Exception {
        SendLoad warmup = new SendLoad(producer, options, topic, options.warmupCount(), 0, null);
        progress.sending("warmup", warmup, null, options.size());
        SendLoad.Summary summary = warmup.run();
        System.out.printf("[%s warmup] %d ok, %d failed in %.1f s (first error: %s)%n", options.label(), summary.ok(),
            summary.notOk() + summary.errors(), summary.elapsedNanos() / 1e9, summary.firstError());
    }

    /** A push consumer in a new group on the topic (and on the warm-up topic when not null), owning every queue. */
    private static DefaultMQPushConsumer startConsumer(MessageLoadOptions options, String runTag,
                                                       DeliveryTracker tracker, String warmupTopic)
        throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("bench_consumer_" + runTag, options.rpcHook());
        consumer.setNamesrvAddr(options.namesrvAddr());
        consumer.setInstanceName("bench-consumer-" + runTag);
        consumer.setMessageModel(MessageModel.CLUSTERING);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeThreadMin(options.consumeThreads());
        consumer.setConsumeThreadMax(options.consumeThreads());
        consumer.subscribe(options.topic(), "*");
        if (warmupTopic != null) {
            consumer.subscribe(warmupTopic, "*");
        }
        consumer.setMessageListener(tracker);
        consumer.start();
        awaitQueuesOwned(consumer, options);
        return consumer;
    }

    /** Waits until the consumer's rebalance gave it every queue of the topic (it is the group's only member). */
    private static void awaitQueuesOwned(DefaultMQPushConsumer consumer, MessageLoadOptions options)
        throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REBALANCE_TIMEOUT_MS);
        long owned = 0;
        while (System.nanoTime() < deadline) {
            owned = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet()
                .stream().filter(queue -> queue.getTopic().equals(options.topic())).count();
            if (owned >= options.queues()) {
                return;
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        System.out.println("warning: the consumer owns " + owned + " of " + options.queues() + " queues after "
            + REBALANCE_TIMEOUT_MS + " ms; going on");
    }

    /**
     * Waits until every acknowledged message was delivered, at most --drain-seconds, and at most
     * --drain-idle-seconds without a new delivery: what is missing then counts as lost.
     */
    private static void drain(DeliveryTracker tracker, MessageLoadOptions options) throws InterruptedException {
        long startNanos = System.nanoTime();
        long lastChangeNanos = startNanos;
        long lastDelivered = -1;
        while (true) {
            long delivered = tracker.uniqueDeliveries();
            if (delivered >= tracker.acknowledgedCount() && tracker.lost() == 0) {
                return;
            }
            long now = System.nanoTime();
            if (delivered != lastDelivered) {
                lastDelivered = delivered;
                lastChangeNanos = now;
            }
            if (now - startNanos > TimeUnit.SECONDS.toNanos(options.drainSeconds())) {
                System.out.println("drain: --drain-seconds " + options.drainSeconds() + " reached");
                return;
            }
            if (now - lastChangeNanos > TimeUnit.SECONDS.toNanos(options.drainIdleSeconds())) {
                System.out.println("drain: nothing new for --drain-idle-seconds " + options.drainIdleSeconds());
                return;
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
    }

    /** The CPU time so far of the --replica-pids processes together (a process that is gone adds -1). */
    private static long replicaCpuMillis(MessageLoadOptions options) {
        long sum = 0;
        for (String pid : options.replicaPids().split(",")) {
            if (!pid.isBlank()) {
                sum += ProcessStats.cpuMillis(pid.trim());
            }
        }
        return sum;
    }

    private static MessageLoadResult result(MessageLoadOptions options, SendLoad.Summary send,
                                            DeliveryTracker tracker, long consumerStartNanos, String broker,
                                            long brokerCpuStart, long brokerCpuAfterSend, long brokerCpuEnd,
                                            long replicaCpuSend, long clientCpuMillis) {
        long brokerPeakRss = broker == null ? -1 : ProcessStats.statusKib(broker, "VmHWM");
        long brokerRssAnon = broker == null ? -1 : ProcessStats.statusKib(broker, "RssAnon");
        long brokerCpuSend = broker == null ? -1 : brokerCpuAfterSend - brokerCpuStart;
        long brokerCpuDrain = broker == null || tracker == null ? -1 : brokerCpuEnd - brokerCpuAfterSend;
        if (tracker == null) {
            return new MessageLoadResult(options, send, -1, -1, -1, -1, -1, -1, -1, -1, -1, brokerCpuSend,
                brokerCpuDrain, replicaCpuSend, brokerPeakRss, brokerRssAnon, clientCpuMillis);
        }
        long first = tracker.firstDeliveryNanos();
        long consumeNanos = first == 0 ? 0 : tracker.lastDeliveryNanos() - first;
        long consumeStartMillis = first == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(first - consumerStartNanos);
        LatencyHistogram endToEnd = tracker.endToEnd();
        return new MessageLoadResult(options, send, tracker.uniqueDeliveries(), consumeNanos, consumeStartMillis,
            endToEnd.percentileMicros(0.50), endToEnd.percentileMicros(0.99), endToEnd.percentileMicros(0.999),
            tracker.lost(), tracker.duplicateDeliveries(), tracker.deliveredUnacknowledged(), brokerCpuSend,
            brokerCpuDrain, replicaCpuSend, brokerPeakRss, brokerRssAnon, clientCpuMillis);
    }
}
