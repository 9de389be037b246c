package io.vrmq.compat.controller.support;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * The official producer sending SYNC messages without pause on its own thread, each body a sequence number, and
 * remembering which numbers got SEND_OK: what a failover test checks the consumers against. Failed sends (timeouts,
 * no route while a master is being elected) are counted and the next number is sent; nothing is retried by hand
 * (the client retries within a send as it is configured to). Start and stop on the test thread.
 */
public final class SequencedProducer implements AutoCloseable {
    private static final long PAUSE_AFTER_FAILURE_MS = 50;

    private final DefaultMQProducer producer;
    private final String topic;
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextSequence = new AtomicLong();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicLong lastOkNanos = new AtomicLong();
    private final Map<String, ConcurrentSkipListSet<Long>> okNanosByStoreHost = new ConcurrentHashMap<>();
    private volatile boolean isRunning = true;
    private final Thread thread;

    private SequencedProducer(DefaultMQProducer producer, String topic) {
        this.producer = producer;
        this.topic = topic;
        this.thread = new Thread(this::run, "sequenced-producer-" + topic);
        this.thread.setDaemon(true);
    }

    public static SequencedProducer start(DefaultMQProducer producer, String topic) {
        SequencedProducer sender = new SequencedProducer(producer, topic);
        sender.thread.start();
        return sender;
    }

    public static long sequenceOf(byte[] body) {
        return Long.parseLong(new String(body, StandardCharsets.UTF_8).substring("seq-".length()));
    }

    /** The sequence numbers that got SEND_OK so far. */
    public Set<Long> acknowledged() {
        return Set.copyOf(acknowledged);
    }

    public int acknowledgedCount() {
        return acknowledged.size();
    }

    public int failureCount() {
        return failures.get();
    }

    /** System.nanoTime() of the newest SEND_OK (0 before the first). */
    public long lastOkNanos() {
        return lastOkNanos.get();
    }

    /**
     * System.nanoTime() of the first SEND_OK after {@code sinceNanos} for a message stored by the broker at
     * {@code brokerAddr} (its offsetMsgId names the storing host), or 0 if none yet: when a new master took its first
     * write after a kill.
     */
    public long firstOkNanosFrom(String brokerAddr, long sinceNanos) {
        ConcurrentSkipListSet<Long> times = okNanosByStoreHost.get(brokerAddr);
        Long first = times == null ? null : times.higher(sinceNanos);
        return first == null ? 0 : first;
    }

    /** System.nanoTime() of the newest SEND_OK for a message stored by {@code brokerAddr}, or 0. */
    public long lastOkNanosFrom(String brokerAddr) {
        ConcurrentSkipListSet<Long> times = okNanosByStoreHost.get(brokerAddr);
        return times == null || times.isEmpty() ? 0 : times.last();
    }

    private static String storeHost(SendResult result) {
        try {
            SocketAddress host = MessageDecoder.decodeMessageId(result.getOffsetMsgId()).getAddress();
            InetSocketAddress address = (InetSocketAddress) host;
            return address.getAddress().getHostAddress() + ":" + address.getPort();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }

    /** Stops after the send in progress and returns once the thread ended. */
    @Override
    public void close() throws InterruptedException {
        isRunning = false;
        thread.join();
    }

    private void run() {
        while (isRunning) {
            long sequence = nextSequence.getAndIncrement();
            Message message = new Message(topic, "seq", ("seq-" + sequence).getBytes(StandardCharsets.UTF_8));
            message.setKeys("seq-" + sequence);
            try {
                SendResult result = producer.send(message);
                if (result.getSendStatus() == SendStatus.SEND_OK) {
                    long nowNanos = System.nanoTime();
                    acknowledged.add(sequence);
                    lastOkNanos.set(nowNanos);
                    okNanosByStoreHost.computeIfAbsent(storeHost(result), host -> new ConcurrentSkipListSet<>())
                        .add(nowNanos);
                } else {
                    failures.incrementAndGet();
                }
            } catch (Exception e) {
                failures.incrementAndGet();
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_AFTER_FAILURE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
