package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;
import io.vrmq.loadcommon.Json;
import io.vrmq.loadcommon.LatencyHistogram;
import io.vrmq.loadcommon.ProcessStats;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.client.consumer.AckCallback;
import org.apache.rocketmq.client.consumer.AckResult;
import org.apache.rocketmq.client.consumer.AckStatus;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PopCallback;
import org.apache.rocketmq.client.consumer.PopResult;
import org.apache.rocketmq.client.consumer.PopStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageRequestMode;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.protocol.header.AckMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ExtraInfoUtil;
import org.apache.rocketmq.remoting.protocol.header.PopMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * POP consume load for one broker through any NameServer, with the official RocketMQ 5.5.0 client only, so ours and
 * Apache's are measured the same way. One run: create the topic with --queues queues, send --count messages of
 * --size bytes as a backlog (async, window 512), then consume them all by POP:
 * <ul>
 * <li>{@code --mode push}: the push consumer in POP mode (the group switched with SET_MESSAGE_REQUEST_MODE on the
 * master, clientRebalance off, popBatchNums --batch, popInvisibleTime --invisible-ms): consume throughput, from the
 * consumer's start to the last message;</li>
 * <li>{@code --mode direct}: --poppers threads, each popping --batch messages at a time from every queue (queue id
 * -1, as Apache's proxy pops) with {@code MQClientAPIImpl.popMessageAsync} and acking each message with
 * {@code ackMessageAsync} right away: pop throughput, and the ack latency (request to answer) p50/p99/p999.</li>
 * </ul>
 * Around the consumption it reads the broker's CPU time (--watch-pid). Prints a final JSON line prefixed "RESULT ":
 * consumed, duplicated, consumePerSecond, ackP50Micros/P99/P999, brokerCpuMillis. Bounded in time; stops by itself.
 */
public final class PopLoadBench {
    static final String USAGE = """
        usage: PopLoadBench --namesrv host:port --label name --topic T [--mode push|direct] [--count 100000]
               [--size 1024] [--queues 8] [--batch 32] [--invisible-ms 60000] [--poppers 4]
               [--watch-pid pid] [--drain-seconds 300]""";
    private static final long REQUEST_TIMEOUT_MS = 10_000;
    private static final long POLL_TIME_MS = 2_000;
    private static final int SEND_WINDOW = 512;
    private static final int RESEND_ATTEMPTS = 5;
    private static final long POLL_INTERVAL_MS = 100;
    private static final long ROUTE_TIMEOUT_MS = 30_000;

    private PopLoadBench() {
    }

    /** The command line. */
    record Options(String namesrv, String label, String topic, String mode, int count, int size, int queues,
                   int batch, long invisibleMs, int poppers, String watchPid, long drainSeconds) {
        static Options parse(String[] args) {
            Map<String, String> values = CommandLine.parse(args, USAGE);
            CommandLine.require(values.containsKey("namesrv") && values.containsKey("topic"), "--namesrv and --topic",
                USAGE);
            Options options = new Options(values.get("namesrv"), values.getOrDefault("label", "pop"),
                values.get("topic"), values.getOrDefault("mode", "push"),
                Integer.parseInt(values.getOrDefault("count", "100000")),
                Integer.parseInt(values.getOrDefault("size", "1024")),
                Integer.parseInt(values.getOrDefault("queues", "8")),
                Integer.parseInt(values.getOrDefault("batch", "32")),
                Long.parseLong(values.getOrDefault("invisible-ms", "60000")),
                Integer.parseInt(values.getOrDefault("poppers", "4")), values.get("watch-pid"),
                Long.parseLong(values.getOrDefault("drain-seconds", "300")));
            CommandLine.require(Set.of("push", "direct").contains(options.mode()), "--mode push|direct", USAGE);
            CommandLine.require(options.batch() > 0 && options.batch() <= 32, "--batch 1..32", USAGE);
            return options;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        String runTag = Long.toHexString(System.nanoTime());
        DefaultMQProducer producer = new DefaultMQProducer("pop_bench_producer_" + runTag);
        producer.setNamesrvAddr(options.namesrv());
        producer.setInstanceName("pop-bench-" + runTag);
        producer.setSendMsgTimeout((int) REQUEST_TIMEOUT_MS);
        producer.start();
        try {
            createTopic(producer, options);
            sendBacklog(producer, options);
            String group = "pop_bench_group_" + runTag;
            BrokerData broker = masterOf(producer, options.topic());
            long cpuStart = options.watchPid() == null ? -1 : ProcessStats.cpuMillis(options.watchPid());
            Consumed consumed = options.mode().equals("push")
                ? consumeByPushConsumer(producer, options, group, broker, runTag)
                : consumeDirectly(producer, options, group, broker);
            long cpuEnd = options.watchPid() == null ? -1 : ProcessStats.cpuMillis(options.watchPid());
            System.out.println("RESULT " + consumed.toJson(options, cpuStart < 0 ? -1 : cpuEnd - cpuStart));
        } finally {
            producer.shutdown();
        }
        // The client's own threads (a shut-down POP push consumer's among them) may outlive main: a tool ends here.
        System.exit(0);
    }

    /** What a consumption measured. */
    record Consumed(long unique, long duplicated, long elapsedNanos, LatencyHistogram acks, long ackFailures) {
        String toJson(Options options, long brokerCpuMillis) {
            double seconds = elapsedNanos / 1e9;
            return "{\"label\":" + Json.quote(options.label()) + ",\"mode\":" + Json.quote(options.mode())
                + ",\"count\":" + options.count() + ",\"consumed\":" + unique + ",\"duplicated\":" + duplicated
                + ",\"seconds\":" + String.format("%.2f", seconds)
                + ",\"consumePerSecond\":" + String.format("%.0f", unique / Math.max(seconds, 1e-9))
                + ",\"ackP50Micros\":" + (acks == null ? -1 : acks.percentileMicros(0.50))
                + ",\"ackP99Micros\":" + (acks == null ? -1 : acks.percentileMicros(0.99))
                + ",\"ackP999Micros\":" + (acks == null ? -1 : acks.percentileMicros(0.999))
                + ",\"ackFailures\":" + ackFailures + ",\"brokerCpuMillis\":" + brokerCpuMillis + "}";
        }
    }

    private static void createTopic(DefaultMQProducer producer, Options options) throws Exception {
        producer.createTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, options.topic(), options.queues(), null);
        long deadline = System.currentTimeMillis() + ROUTE_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (producer.fetchPublishMessageQueues(options.topic()).size() >= options.queues()) {
                    return;
                }
            } catch (Exception notYetRouted) {
                // the broker registers the new topic right after creating it
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        throw new IllegalStateException("topic " + options.topic() + " not routed within " + ROUTE_TIMEOUT_MS);
    }

    /**
     * --count messages, body "seq:" padded to --size, at most {@link #SEND_WINDOW} in flight; a send that failed (a
     * timeout on a loaded machine) is sent again synchronously, so the backlog holds every seq at least once.
     */
    private static void sendBacklog(DefaultMQProducer producer, Options options) throws Exception {
        java.util.concurrent.Semaphore window = new java.util.concurrent.Semaphore(SEND_WINDOW);
        Set<Integer> failed = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(options.count());
        long start = System.nanoTime();
        CountProgress progress = new CountProgress(options.label() + " backlog",
            () -> options.count() - done.getCount(), options.count());
        for (int seq = 0; seq < options.count(); seq++) {
            int sent = seq;
            window.acquire();
            producer.send(new Message(options.topic(), "TagA", body(seq, options.size())), new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    if (result.getSendStatus() != SendStatus.SEND_OK) {
                        failed.add(sent);
                    }
                    window.release();
                    done.countDown();
                }

                @Override
                public void onException(Throwable e) {
                    failed.add(sent);
                    window.release();
                    done.countDown();
                }
            });
        }
        done.await(options.drainSeconds(), TimeUnit.SECONDS);
        progress.close();
        for (int seq : failed) {
            resend(producer, options, seq);
        }
        System.out.printf("[%s] backlog of %d sent in %.1f s, %d sent again after a failure%n", options.label(),
            options.count(), (System.nanoTime() - start) / 1e9, failed.size());
    }

    private static void resend(DefaultMQProducer producer, Options options, int seq) throws Exception {
        Exception last = null;
        for (int attempt = 0; attempt < RESEND_ATTEMPTS; attempt++) {
            try {
                SendResult result = producer.send(new Message(options.topic(), "TagA", body(seq, options.size())));
                if (result.getSendStatus() == SendStatus.SEND_OK) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
        }
        throw new IllegalStateException("seq " + seq + " not stored after " + RESEND_ATTEMPTS + " attempts", last);
    }

    private static byte[] body(int seq, int size) {
        byte[] body = new byte[Math.max(size, 12)];
        Arrays.fill(body, (byte) 'x');
        byte[] head = (seq + ":").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, body, 0, head.length);
        return body;
    }

    private static int seqOf(MessageExt message) {
        String body = new String(message.getBody(), 0, Math.min(12, message.getBody().length),
            StandardCharsets.US_ASCII);
        return Integer.parseInt(body.substring(0, body.indexOf(':')));
    }

    private static BrokerData masterOf(DefaultMQProducer producer, String topic) throws Exception {
        MQClientAPIImpl api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
        TopicRouteData route = api.getTopicRouteInfoFromNameServer(topic, REQUEST_TIMEOUT_MS);
        return route.getBrokerDatas().get(0);
    }

    private static Consumed consumeByPushConsumer(DefaultMQProducer producer, Options options, String group,
                                                  BrokerData broker, String runTag) throws Exception {
        MQClientAPIImpl api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
        api.setMessageRequestMode(broker.getBrokerAddrs().get(0L), options.topic(), group, MessageRequestMode.POP, 0,
            REQUEST_TIMEOUT_MS);
        Tracker tracker = new Tracker(options.count());
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(options.namesrv());
        consumer.setInstanceName("pop-bench-consumer-" + runTag);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setClientRebalance(false);
        consumer.setPopBatchNums(options.batch());
        consumer.setPopInvisibleTime(options.invisibleMs());
        consumer.setConsumeMessageBatchMaxSize(1);
        consumer.subscribe(options.topic(), "TagA");
        consumer.setMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(tracker::received);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        long start = System.nanoTime();
        consumer.start();
        try {
            long end = tracker.awaitAll(options.drainSeconds());
            return new Consumed(tracker.unique(), tracker.duplicated(), end - start, null, 0);
        } finally {
            consumer.shutdown();
        }
    }

    private static Consumed consumeDirectly(DefaultMQProducer producer, Options options, String group,
                                            BrokerData broker) throws Exception {
        MQClientAPIImpl api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
        String addr = broker.getBrokerAddrs().get(0L);
        Tracker tracker = new Tracker(options.count());
        LatencyHistogram acks = new LatencyHistogram();
        AtomicLong ackFailures = new AtomicLong();
        List<Thread> poppers = new ArrayList<>();
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(options.drainSeconds());
        for (int i = 0; i < options.poppers(); i++) {
            Thread popper = new Thread(() -> {
                while (tracker.unique() < options.count() && System.nanoTime() < deadline) {
                    popAndAck(api, broker.getBrokerName(), addr, options, group, tracker, acks, ackFailures);
                }
            }, "popper-" + i);
            popper.start();
            poppers.add(popper);
        }
        long end = tracker.awaitAll(options.drainSeconds());
        for (Thread popper : poppers) {
            popper.join(REQUEST_TIMEOUT_MS + POLL_TIME_MS);
        }
        return new Consumed(tracker.unique(), tracker.duplicated(), end - start, acks, ackFailures.get());
    }

    /** One pop of every queue and an async ack of each message it got; waits for the pop, not for the acks. */
    private static void popAndAck(MQClientAPIImpl api, String brokerName, String addr, Options options, String group,
                                  Tracker tracker, LatencyHistogram acks, AtomicLong ackFailures) {
        PopMessageRequestHeader header = new PopMessageRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(options.topic());
        header.setQueueId(-1);
        header.setMaxMsgNums(options.batch());
        header.setInvisibleTime(options.invisibleMs());
        header.setInitMode(0);
        header.setExpType("TAG");
        header.setExp("TagA");
        header.setOrder(false);
        header.setPollTime(POLL_TIME_MS);
        header.setBornTime(System.currentTimeMillis());
        CountDownLatch popped = new CountDownLatch(1);
        try {
            api.popMessageAsync(brokerName, addr, header, POLL_TIME_MS + REQUEST_TIMEOUT_MS, new PopCallback() {
                @Override
                public void onSuccess(PopResult result) {
                    if (result.getPopStatus() == PopStatus.FOUND) {
                        for (MessageExt message : result.getMsgFoundList()) {
                            tracker.received(message);
                            ack(api, addr, group, message, acks, ackFailures);
                        }
                    }
                    popped.countDown();
                }

                @Override
                public void onException(Throwable e) {
                    popped.countDown();
                }
            });
            popped.await(POLL_TIME_MS + 2 * REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            ackFailures.incrementAndGet();
        }
    }

    private static void ack(MQClientAPIImpl api, String addr, String group, MessageExt message,
                            LatencyHistogram acks, AtomicLong ackFailures) {
        String receipt = message.getProperty(MessageConst.PROPERTY_POP_CK);
        String[] fields = ExtraInfoUtil.split(receipt);
        AckMessageRequestHeader header = new AckMessageRequestHeader();
        header.setTopic(ExtraInfoUtil.getRealTopic(fields, message.getTopic(), group));
        header.setQueueId(ExtraInfoUtil.getQueueId(fields));
        header.setOffset(ExtraInfoUtil.getQueueOffset(fields));
        header.setConsumerGroup(group);
        header.setExtraInfo(receipt);
        long startNanos = System.nanoTime();
        try {
            api.ackMessageAsync(addr, REQUEST_TIMEOUT_MS, new AckCallback() {
                @Override
                public void onSuccess(AckResult result) {
                    acks.record(System.nanoTime() - startNanos);
                    if (result.getStatus() != AckStatus.OK) {
                        ackFailures.incrementAndGet();
                    }
                }

                @Override
                public void onException(Throwable e) {
                    ackFailures.incrementAndGet();
                }
            }, header);
        } catch (Exception e) {
            ackFailures.incrementAndGet();
        }
    }

    /** Which of the --count messages arrived, how many twice, and when the last new one did. */
    private static final class Tracker {
        private final int count;
        private final Set<Integer> seen = ConcurrentHashMap.newKeySet();
        private final AtomicLong duplicated = new AtomicLong();
        private final CountDownLatch all;
        private volatile long lastNewNanos;

        Tracker(int count) {
            this.count = count;
            this.all = new CountDownLatch(count);
        }

        void received(MessageExt message) {
            int seq = seqOf(message);
            if (seq < count && seen.add(seq)) {
                lastNewNanos = System.nanoTime();
                all.countDown();
            } else {
                duplicated.incrementAndGet();
            }
        }

        long unique() {
            return seen.size();
        }

        long duplicated() {
            return duplicated.get();
        }

        /** Waits for every message (at most {@code seconds}); the time of the last new one. */
        long awaitAll(long seconds) throws InterruptedException {
            boolean isComplete;
            try (CountProgress progress = new CountProgress("pop drain", this::unique, count)) {
                isComplete = all.await(seconds, TimeUnit.SECONDS);
            }
            if (!isComplete) {
                System.out.println("drain: " + unique() + " of " + count + " after " + seconds + " s");
            }
            return lastNewNanos;
        }
    }
}
