package io.vrmq.load;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * Sync sends through the official producer at a steady rate from a few threads (each waits for its answer, then for
 * its next slot; a thread that was held up by a slow answer does not send a burst to catch up), for
 * {@link FailoverProbe}. After {@link #markKill} it watches for the first SEND_OK stored by a broker other than the
 * killed one (the store host in the answer's offsetMsgId) and counts the sends that failed from then on: an
 * exception (no route, connection refused, timeout once the client's own retries are used up) or a status other than
 * SEND_OK. Started and stopped by the probe's main thread; the sending threads record concurrently.
 */
final class PacedSender {

    private final DefaultMQProducer producer;
    private final String topic;
    private final long slotNanos;
    private final byte[] body;
    private final List<Thread> threads = new ArrayList<>();
    private final LongAdder ok = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder failedSinceKill = new LongAdder();
    private final AtomicLong firstOtherOkNanos = new AtomicLong();
    private final AtomicReference<String> firstOtherOkHost = new AtomicReference<>();
    private final AtomicReference<String> firstErrorSinceKill = new AtomicReference<>();
    private final Map<String, LongAdder> errorKindsSinceKill = new ConcurrentHashMap<>();
    private volatile boolean isRunning = true;
    private volatile String killedHost;
    private volatile long killNanos;

    /** @param rate messages per second over all {@code threadCount} threads */
    PacedSender(DefaultMQProducer producer, String topic, int rate, int threadCount, int sizeBytes) {
        this.producer = producer;
        this.topic = topic;
        this.slotNanos = threadCount * 1_000_000_000L / rate;
        this.body = new byte[sizeBytes];
        ThreadLocalRandom.current().nextBytes(body);
        for (int i = 0; i < threadCount; i++) {
            threads.add(new Thread(this::sendLoop, "paced-send-" + i));
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** From now on, count failures and look for the first SEND_OK from a host other than {@code host}. */
    void markKill(String host, long nanos) {
        killNanos = nanos;
        killedHost = host;
    }

    /** Stops after the sends in progress. */
    void stop() throws InterruptedException {
        isRunning = false;
        for (Thread thread : threads) {
            thread.join();
        }
    }

    long okCount() {
        return ok.sum();
    }

    long failedCount() {
        return failed.sum();
    }

    long failedSinceKill() {
        return failedSinceKill.sum();
    }

    /** System.nanoTime() of the first SEND_OK after the kill stored by another broker, 0 before it. */
    long firstOtherOkNanos() {
        return firstOtherOkNanos.get();
    }

    String firstOtherOkHost() {
        return firstOtherOkHost.get();
    }

    String firstErrorSinceKill() {
        return firstErrorSinceKill.get();
    }

    /** Failures since the kill by kind (the innermost cause's class and message, digits as '#'), sorted. */
    Map<String, Long> errorKindsSinceKill() {
        Map<String, Long> kinds = new TreeMap<>();
        errorKindsSinceKill.forEach((kind, count) -> kinds.put(kind, count.sum()));
        return kinds;
    }

    private void sendLoop() {
        long dueNanos = System.nanoTime() + ThreadLocalRandom.current().nextLong(slotNanos);
        while (isRunning) {
            for (long wait = dueNanos - System.nanoTime(); wait > 0; wait = dueNanos - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            sendOne();
            dueNanos = Math.max(dueNanos + slotNanos, System.nanoTime());
        }
    }

    private void sendOne() {
        try {
            SendResult result = producer.send(new Message(topic, body));
            long answeredNanos = System.nanoTime();
            if (result.getSendStatus() == SendStatus.SEND_OK) {
                ok.increment();
                String host = storeHost(result);
                if (killedHost != null && host != null && !host.equals(killedHost)
                    && firstOtherOkNanos.compareAndSet(0, answeredNanos)) {
                    firstOtherOkHost.set(host);
                }
            } else {
                String status = "send status " + result.getSendStatus();
                failed(answeredNanos, status, status);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            isRunning = false;
        } catch (Exception e) {
            failed(System.nanoTime(), e.toString(), kind(e));
        }
    }

    private void failed(long answeredNanos, String error, String kind) {
        failed.increment();
        if (killedHost != null && answeredNanos - killNanos >= 0) {
            failedSinceKill.increment();
            firstErrorSinceKill.compareAndSet(null, error);
            errorKindsSinceKill.computeIfAbsent(kind, any -> new LongAdder()).increment();
        }
    }

    /** The innermost cause, as "SimpleClassName: message" with digits replaced, so that alike failures count as one. */
    private static String kind(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? "" : root.getMessage().replaceAll("[0-9]+", "#");
        int end = message.indexOf("See http");      // the client's FAQ link
        return root.getClass().getSimpleName() + ": " + (end > 0 ? message.substring(0, end) : message).trim();
    }

    /** "ip:port" of the broker that stored the message (the store host in its offsetMsgId), or null. */
    private static String storeHost(SendResult result) {
        try {
            InetSocketAddress address = (InetSocketAddress) MessageDecoder.decodeMessageId(result.getOffsetMsgId())
                .getAddress();
            return address.getAddress().getHostAddress() + ":" + address.getPort();
        } catch (Exception e) {
            return null;
        }
    }
}
