package io.vrmq.load;

import io.vrmq.loadcommon.BodyHeader;
import io.vrmq.loadcommon.DeliveryTracker;
import io.vrmq.loadcommon.LatencyHistogram;
import io.vrmq.loadcommon.ProcessStats;
import io.vrmq.loadcommon.ProgressLine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
 * duplicated counts. Bounded in count and time; stops by itself. For the scale table (scripts/bench-scale.sh):
 * --producers spreads the sends over that many producer instances (connections, {@link ProducerPool}),
 * --topic-count over that many topics of --queues queues each (the consumer subscribes to all of them, so its held
 * pulls grow with them), and --idle-seconds measures the broker holding those pulls with nothing to read
 * ({@link BrokerIdle}) before the sends.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.MessageLoadBench --namesrv 127.0.0.1:9876 --mode async --consume after</pre>
 */
public final class MessageLoadBench {

    /** Every body starts with a {@link BodyHeader}, then filler up to --size. */
    static final int HEADER_BYTES = BodyHeader.HEADER_BYTES;

    private static final long ROUTE_TIMEOUT_MS = 30_000;
    private static final long REBALANCE_TIMEOUT_MS = 30_000;
    /** The consumer asks the broker for each new queue's offset before it pulls: allow for that per queue. */
    private static final long REBALANCE_MS_PER_QUEUE = 10;
    private static final int TOPIC_PROGRESS_EVERY = 500;
    private static final long POLL_INTERVAL_MS = 100;
    private static final String SELF = "self";

    private MessageLoadBench() {
    }

    /** Ends the JVM when the run is over: a producer that did not finish its shutdown must not keep it alive. */
    public static void main(String[] args) throws Exception {
        MessageLoadOptions options = MessageLoadOptions.parse(args);
        int status = 1;
        try {
            run(options);
            status = 0;
        } finally {
            System.exit(status);
        }
    }

    private static void run(MessageLoadOptions options) throws Exception {
        long runId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        String runTag = Long.toHexString(runId);
        long clientCpuStartMillis = ProcessStats.cpuMillis(SELF);
        ProducerPool producers = new ProducerPool(options, runTag, options.rpcHook(), options.compressOverBytes());
        ProgressLine progress = new ProgressLine(options.label());
        DefaultMQPushConsumer consumer = null;
        try {
            producers.startFirst();
            prepareTopics(producers.first(), options);
            String warmupTopic = options.warmupCount() > 0 ? options.topic() + "_warmup" : null;
            if (warmupTopic != null) {
                createTopic(producers.first(), warmupTopic, options.queues());
            }
            producers.startOthers();
            producers.learnRoutes(warmupTopic == null ? options.topics()
                : Stream.concat(options.topics().stream(), Stream.of(warmupTopic)).toList());
            if (producers.routeLookupRetries() > 0) {
                System.out.println("route lookups tried again: " + producers.routeLookupRetries());
            }
            DeliveryTracker tracker = new DeliveryTracker(runId, options.count());
            long ownedQueues = -1;
            if (options.consume().equals("concurrent")) {
                consumer = startConsumer(options, runTag, tracker, warmupTopic);
                ownedQueues = ownedQueues(consumer, options);
            }
            if (warmupTopic != null) {
                warmUp(producers, options, warmupTopic, progress);
            }
            String broker = options.watchPid() > 0 ? Long.toString(options.watchPid()) : null;
            BrokerIdle idle = BrokerIdle.measure(broker, options.idleSeconds(), ownedQueues);
            // what the client instances cost this JVM (bench-scale.sh reports it per connections level)
            System.out.println("client threads: " + ManagementFactory.getThreadMXBean().getThreadCount());
            if (options.awaitGo()) {
                awaitGo();
            }
            long sendStartEpochMillis = System.currentTimeMillis();
            long brokerCpuStart = broker == null ? -1 : ProcessStats.cpuMillis(broker);
            long replicaCpuStart = replicaCpuMillis(options);
            long consumerStartNanos = System.nanoTime();      // concurrent: counted from the start of the sends
            SendLoad load = new SendLoad(producers, options, options.topics(), options.count(), runId, tracker);
            progress.sending(options.mode(), load, consumer == null ? null : tracker, options.size());
            SendLoad.Summary send = load.run();
            if (options.awaitGo()) {
                System.out.println("PART " + SplitMessageLoad.partJson(sendStartEpochMillis,
                    System.currentTimeMillis(), load.latenciesSparse()));
            }
            long brokerCpuAfterSend = broker == null ? -1 : ProcessStats.cpuMillis(broker);
            long replicaCpuSend = options.replicaPids().isEmpty() ? -1 : replicaCpuMillis(options) - replicaCpuStart;
            if (options.consume().equals("after")) {
                consumerStartNanos = System.nanoTime();
                consumer = startConsumer(options, runTag, tracker, null);
                ownedQueues = ownedQueues(consumer, options);
            }
            // concurrent: the drain's CPU counts from the end of the sends; after: from the first message, so that
            // the consumer's start (and a lost heartbeat's wait) is the separate brokerCpuDrainStartMillis
            long[] brokerCpuDrainStart = {brokerCpuAfterSend};
            if (consumer != null) {
                progress.draining(tracker);
                boolean backlog = options.consume().equals("after");
                tracker.awaitDelivered(options.drainSeconds(), options.drainIdleSeconds(),
                    options.firstDeliverySeconds(), () -> {
                        if (backlog && broker != null) {
                            brokerCpuDrainStart[0] = ProcessStats.cpuMillis(broker);
                        }
                        // wall-clock marks, to line the drain up with a profile or per-thread CPU of the broker
                        System.out.println("drain: first message at epoch ms " + System.currentTimeMillis());
                    });
                System.out.println("drain: over at epoch ms " + System.currentTimeMillis());
            }
            progress.stop();
            long brokerCpuEnd = broker == null ? -1 : ProcessStats.cpuMillis(broker);
            MessageLoadResult result = result(options, send, consumer == null ? null : tracker, consumerStartNanos,
                broker, brokerCpuStart, brokerCpuAfterSend, brokerCpuDrainStart[0], brokerCpuEnd, replicaCpuSend,
                ProcessStats.cpuMillis(SELF) - clientCpuStartMillis,
                new ScaleFigures(producers.size(), options.topicCount(), ownedQueues, idle));
            System.out.println("RESULT " + result.toJson());
        } catch (Exception failure) {
            // said before the shutdown, which for many producers takes a while
            System.out.println("FAILED " + failure);
            failure.printStackTrace(System.out);
            throw failure;
        } finally {
            progress.stop();
            if (consumer != null) {
                consumer.shutdown();
            }
            producers.shutdown();
        }
    }

    /**
     * One part of a split run: says it is ready to send and waits for the coordinator's go (a line on stdin), so
     * that every JVM's measured sends start together.
     */
    private static void awaitGo() throws IOException {
        System.out.println(SplitMessageLoad.READY);
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (stdin.readLine() == null) {
            throw new IllegalStateException("stdin closed before the go of the split run");
        }
    }

    /** Creates the measured topics (or, without --create-topics, waits for the routes of existing ones). */
    private static void prepareTopics(DefaultMQProducer producer, MessageLoadOptions options) throws Exception {
        List<String> topics = options.topics();
        for (int i = 0; i < topics.size(); i++) {
            if (options.createTopics()) {
                createTopic(producer, topics.get(i), options.queues());
            } else {
                awaitRouted(producer, topics.get(i), options.queues());
            }
            if (topics.size() > 1 && ((i + 1) % TOPIC_PROGRESS_EVERY == 0 || i + 1 == topics.size())) {
                System.out.println((i + 1) + " of " + topics.size() + " topics routed");
            }
        }
    }

    /**
     * Creates the topic on every master in the TBW102 route and waits until the NameServer routes all its queues.
     * Also used by {@link CreateResources} and {@link SoakBench}.
     */
    static void createTopic(DefaultMQProducer producer, String topic, int queues) throws Exception {
        producer.createTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, topic, queues, null);
        System.out.println("topic " + topic + ": " + awaitRouted(producer, topic, queues) + " queues routed");
    }

    /** Waits until the NameServer routes at least {@code queues} queues of the topic; returns how many it routes. */
    private static int awaitRouted(DefaultMQProducer producer, String topic, int queues) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ROUTE_TIMEOUT_MS);
        while (true) {
            try {
                List<MessageQueue> routed = producer.fetchPublishMessageQueues(topic);
                if (routed.size() >= queues) {
                    return routed.size();
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
    private static void warmUp(ProducerPool producers, MessageLoadOptions options, String topic,
                               ProgressLine progress) throws Exception {
        SendLoad warmup = new SendLoad(producers, options, List.of(topic), options.warmupCount(), 0, null);
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
        for (String topic : options.topics()) {
            consumer.subscribe(topic, "*");
        }
        if (warmupTopic != null) {
            consumer.subscribe(warmupTopic, "*");
        }
        consumer.setMessageListener(new DeliveryListener(tracker));
        consumer.start();
        return consumer;
    }

    /**
     * Waits until the consumer's rebalance gave it every queue of the measured topics (it is the group's only member;
     * each owned queue is a pull held at the broker while it has nothing to read); returns how many it owns.
     */
    private static long ownedQueues(DefaultMQPushConsumer consumer, MessageLoadOptions options)
        throws InterruptedException {
        Set<String> topics = Set.copyOf(options.topics());
        long expected = (long) options.queues() * topics.size();
        long timeoutMs = REBALANCE_TIMEOUT_MS + REBALANCE_MS_PER_QUEUE * expected;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long owned = 0;
        while (System.nanoTime() < deadline) {
            owned = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet()
                .stream().filter(queue -> topics.contains(queue.getTopic())).count();
            if (owned >= expected) {
                if (topics.size() > 1) {
                    System.out.println("the consumer owns all " + owned + " queues of " + topics.size() + " topics");
                }
                return owned;
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        System.out.println("warning: the consumer owns " + owned + " of " + expected + " queues after " + timeoutMs
            + " ms; going on");
        return owned;
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
                                            long brokerCpuStart, long brokerCpuAfterSend,
                                            long brokerCpuDrainStart, long brokerCpuEnd, long replicaCpuSend,
                                            long clientCpuMillis, ScaleFigures scale) {
        long brokerPeakRss = broker == null ? -1 : ProcessStats.statusKib(broker, "VmHWM");
        long brokerRssAnon = broker == null ? -1 : ProcessStats.statusKib(broker, "RssAnon");
        long brokerCpuSend = broker == null ? -1 : brokerCpuAfterSend - brokerCpuStart;
        long brokerCpuDrain = broker == null || tracker == null ? -1 : brokerCpuEnd - brokerCpuDrainStart;
        long brokerCpuConsumerStart = broker == null || tracker == null ? -1 : brokerCpuDrainStart - brokerCpuAfterSend;
        if (tracker == null) {
            return new MessageLoadResult(options, send, -1, -1, -1, -1, -1, -1, -1, -1, -1, brokerCpuSend,
                brokerCpuDrain, brokerCpuConsumerStart, replicaCpuSend, brokerPeakRss, brokerRssAnon, clientCpuMillis,
                scale);
        }
        long first = tracker.firstDeliveryNanos();
        long consumeNanos = first == 0 ? 0 : tracker.lastDeliveryNanos() - first;
        long consumeStartMillis = first == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(first - consumerStartNanos);
        LatencyHistogram endToEnd = tracker.endToEnd();
        return new MessageLoadResult(options, send, tracker.uniqueDeliveries(), consumeNanos, consumeStartMillis,
            endToEnd.percentileMicros(0.50), endToEnd.percentileMicros(0.99), endToEnd.percentileMicros(0.999),
            tracker.lost(), tracker.duplicateDeliveries(), tracker.deliveredUnacknowledged(), brokerCpuSend,
            brokerCpuDrain, brokerCpuConsumerStart, replicaCpuSend, brokerPeakRss, brokerRssAnon, clientCpuMillis, scale);
    }
}
