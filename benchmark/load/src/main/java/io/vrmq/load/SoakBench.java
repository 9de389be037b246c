package io.vrmq.load;

import io.vrmq.loadcommon.Json;
import io.vrmq.loadcommon.LatencyHistogram;
import io.vrmq.loadcommon.ProcessStats;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;

/**
 * A soak with the official 5.5.0 client: async sends at a steady --rate for --minutes while a push consumer receives
 * them, then a bounded drain. Each minute prints a {@code MINUTE} line: sends answered and failed, send and
 * end-to-end latency percentiles of that minute, messages received, and the broker's resident and anonymous memory
 * and CPU time in that minute (from /proc, with --watch-pid). The last line ({@code RESULT}, JSON) says what was
 * acknowledged, delivered, lost (SEND_OK and never delivered) and duplicated. Bodies carry the header
 * {@link MessageLoadBench} writes (run id, sequence, send time), so producer and consumer in this JVM measure exactly.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.SoakBench --namesrv 127.0.0.1:9876 --rate 2000 --minutes 30</pre>
 */
public final class SoakBench {

    private static final String SELF = "self";
    private static final long DRAIN_POLL_MS = 200;
    private static final int CONSUME_THREADS = 20;
    private static final double KIB_PER_MIB = 1024.0;

    private final SoakOptions options;
    private final long runId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    private final AtomicIntegerArray acknowledged;
    private final AtomicIntegerArray deliveries;
    private final LongAdder acknowledgedCount = new LongAdder();
    private final LongAdder deliveredCount = new LongAdder();
    private final LongAdder duplicates = new LongAdder();
    private final Semaphore inFlight;
    private SoakMinutes minutes;

    private SoakBench(SoakOptions options) {
        this.options = options;
        this.acknowledged = new AtomicIntegerArray(options.count());
        this.deliveries = new AtomicIntegerArray(options.count());
        this.inFlight = new Semaphore(options.window());
    }

    public static void main(String[] args) throws Exception {
        new SoakBench(SoakOptions.parse(args)).run();
    }

    private void run() throws Exception {
        String runTag = Long.toHexString(runId);
        DefaultMQProducer producer = new DefaultMQProducer("soak_producer_" + runTag);
        producer.setNamesrvAddr(options.namesrvAddr());
        producer.setInstanceName("soak-producer-" + runTag);
        producer.start();
        DefaultMQPushConsumer consumer = null;
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "soak-minutes");
            thread.setDaemon(true);
            return thread;
        });
        try {
            MessageLoadBench.createTopic(producer, options.topic(), options.queues());
            consumer = startConsumer(runTag);
            long startNanos = System.nanoTime();
            int drainMinutes = (options.drainSeconds() + 59) / 60;
            minutes = new SoakMinutes(startNanos, options.minutes() + drainMinutes);
            MinuteReport report = new MinuteReport(startNanos);
            reporter.scheduleAtFixedRate(report::printNextMinute, 60, 60, TimeUnit.SECONDS);
            send(producer, startNanos);
            inFlight.acquire(options.window());         // every send answered
            drain();
            reporter.shutdownNow();
            report.printRemainingMinutes();
            System.out.println("RESULT " + result());
        } finally {
            reporter.shutdownNow();
            if (consumer != null) {
                consumer.shutdown();
            }
            producer.shutdown();
        }
    }

    /** Sends message i at start + i / rate; a full window holds the pacer (it then sends late, never in a burst). */
    private void send(DefaultMQProducer producer, long startNanos) throws Exception {
        long slotNanos = 1_000_000_000L / options.rate();
        byte[] filler = new byte[options.size() - MessageLoadBench.HEADER_BYTES];
        ThreadLocalRandom.current().nextBytes(filler);
        for (int seq = 0; seq < options.count(); seq++) {
            long due = startNanos + seq * slotNanos;
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            inFlight.acquire();
            long sentNanos = System.nanoTime();
            byte[] body = ByteBuffer.allocate(options.size()).putLong(runId).putLong(seq).putLong(sentNanos)
                .put(filler).array();
            int sequence = seq;
            try {
                producer.send(new Message(options.topic(), body), new SendCallback() {
                    @Override
                    public void onSuccess(SendResult result) {
                        answered(sequence, sentNanos, result.getSendStatus() == SendStatus.SEND_OK);
                    }

                    @Override
                    public void onException(Throwable failure) {
                        answered(sequence, sentNanos, false);
                    }
                });
            } catch (Exception refusedAtOnce) {
                answered(seq, sentNanos, false);
            }
        }
    }

    private void answered(int seq, long sentNanos, boolean isOk) {
        long now = System.nanoTime();
        if (isOk) {
            acknowledged.set(seq, 1);
            acknowledgedCount.increment();
            minutes.sendAnswered(sentNanos, now);
        } else {
            minutes.sendFailed(now);
        }
        inFlight.release();
    }

    private DefaultMQPushConsumer startConsumer(String runTag) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("soak_consumer_" + runTag);
        consumer.setNamesrvAddr(options.namesrvAddr());
        consumer.setInstanceName("soak-consumer-" + runTag);
        consumer.setMessageModel(MessageModel.CLUSTERING);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeThreadMin(CONSUME_THREADS);
        consumer.setConsumeThreadMax(CONSUME_THREADS);
        consumer.subscribe(options.topic(), "*");
        consumer.setMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received(messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    private void received(List<MessageExt> messages) {
        long now = System.nanoTime();
        for (MessageExt message : messages) {
            ByteBuffer header = ByteBuffer.wrap(message.getBody());
            if (header.remaining() < MessageLoadBench.HEADER_BYTES || header.getLong() != runId) {
                continue;                                  // another run's message on a reused topic
            }
            long seq = header.getLong();
            long sentNanos = header.getLong();
            if (seq < 0 || seq >= deliveries.length()) {
                continue;
            }
            if (deliveries.incrementAndGet((int) seq) == 1) {
                deliveredCount.increment();
                minutes.delivered(sentNanos, now);
            } else {
                duplicates.increment();
            }
        }
    }

    /**
     * Until every acknowledged message arrived, or --drain-seconds. Not by comparing counts: a send that timed out
     * may still have been stored and delivered, so the delivered count can reach the acknowledged one early.
     */
    private void drain() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.drainSeconds());
        while (undelivered() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(DRAIN_POLL_MS);
        }
    }

    /** Acknowledged (SEND_OK) and not delivered yet: after the drain, the lost ones. Scans every message. */
    private long undelivered() {
        long count = 0;
        for (int seq = 0; seq < acknowledged.length(); seq++) {
            if (acknowledged.get(seq) == 1 && deliveries.get(seq) == 0) {
                count++;
            }
        }
        return count;
    }

    private String result() {
        long lost = undelivered();
        return String.format(Locale.ROOT, "{\"label\":%s,\"rate\":%d,\"minutes\":%d,\"size\":%d,\"sent\":%d,"
                + "\"acknowledged\":%d,\"delivered\":%d,\"lost\":%d,\"duplicates\":%d}", Json.quote(options.label()),
            options.rate(), options.minutes(), options.size(), options.count(), acknowledgedCount.sum(),
            deliveredCount.sum(), lost, duplicates.sum());
    }

    /** Prints each minute once it is over; owned by the reporter thread, then by the main thread after the drain. */
    private final class MinuteReport {
        private final long startNanos;
        private int nextMinute;
        private long lastBrokerCpuMillis;

        MinuteReport(long startNanos) {
            this.startNanos = startNanos;
            this.lastBrokerCpuMillis = brokerCpuMillis();
        }

        synchronized void printNextMinute() {
            print(nextMinute++);
        }

        /** The minutes of the drain (and a last, partial one). */
        synchronized void printRemainingMinutes() {
            int last = (int) ((System.nanoTime() - startNanos) / 60_000_000_000L);
            while (nextMinute <= last && nextMinute < options.minutes() + (options.drainSeconds() + 59) / 60) {
                print(nextMinute++);
            }
        }

        private void print(int minute) {
            LatencyHistogram send = minutes.send(minute);
            LatencyHistogram endToEnd = minutes.endToEnd(minute);
            long cpu = brokerCpuMillis();
            String pid = Long.toString(options.watchPid());
            System.out.printf(Locale.ROOT, "MINUTE %d sent=%d failed=%d sendP50ms=%.2f sendP99ms=%.2f "
                    + "sendP999ms=%.2f received=%d e2eP50ms=%.2f e2eP99ms=%.2f e2eP999ms=%.2f brokerRssMiB=%.0f "
                    + "brokerAnonMiB=%.0f brokerCpuMs=%d clientAnonMiB=%.0f%n", minute + 1, send.count(),
                minutes.failed(minute), millis(send, 0.5), millis(send, 0.99), millis(send, 0.999), endToEnd.count(),
                millis(endToEnd, 0.5), millis(endToEnd, 0.99), millis(endToEnd, 0.999),
                ProcessStats.statusKib(pid, "VmRSS") / KIB_PER_MIB, ProcessStats.statusKib(pid, "RssAnon") / KIB_PER_MIB,
                cpu < 0 ? -1 : cpu - lastBrokerCpuMillis, ProcessStats.statusKib(SELF, "RssAnon") / KIB_PER_MIB);
            lastBrokerCpuMillis = cpu;
            if (minute < options.minutes()) {
                System.out.printf(Locale.ROOT, "[%s] minute %d of %d, about %d min left%n", options.label(),
                    minute + 1, options.minutes(), options.minutes() - minute - 1);
            }
        }

        private long brokerCpuMillis() {
            return options.watchPid() > 0 ? ProcessStats.cpuMillis(Long.toString(options.watchPid())) : -1;
        }

        private static double millis(LatencyHistogram histogram, double quantile) {
            return histogram.percentileMicros(quantile) / 1e3;
        }
    }
}
