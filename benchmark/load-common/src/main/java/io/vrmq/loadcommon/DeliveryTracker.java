package io.vrmq.loadcommon;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What was sent and what came back, per message of one measured run: the producer marks each message whose send
 * succeeded (SEND_OK), the consumer counts each delivery. Messages are told apart by the {@link BodyHeader} the load
 * tool writes at the start of every body: run id, sequence number, {@link System#nanoTime()} at send (producer and
 * consumer run in this JVM, so the end-to-end latency is exact and immune to clock steps). Bodies of other runs (an
 * earlier run on the same topic, the warm-up) are counted as foreign and otherwise ignored. Thread-safe: the
 * client's callback threads and the consuming threads record concurrently.
 */
public final class DeliveryTracker {

    private static final long DRAIN_POLL_INTERVAL_MS = 100;
    /** Before the first delivery the wait looks more often, so that the drain's start is read closely. */
    public static final long FIRST_DELIVERY_POLL_INTERVAL_MS = 5;

    private final long runId;
    private final AtomicIntegerArray acknowledged;
    private final AtomicIntegerArray deliveries;
    private final LongAdder acknowledgedCount = new LongAdder();
    private final LongAdder uniqueDeliveries = new LongAdder();
    private final LongAdder duplicateDeliveries = new LongAdder();
    private final LongAdder foreignDeliveries = new LongAdder();
    private final LatencyHistogram endToEnd = new LatencyHistogram();
    private final AtomicLong firstDeliveryNanos = new AtomicLong();
    private final AtomicLong lastDeliveryNanos = new AtomicLong();

    public DeliveryTracker(long runId, int capacity) {
        this.runId = runId;
        this.acknowledged = new AtomicIntegerArray(capacity);
        this.deliveries = new AtomicIntegerArray(capacity);
    }

    /** The producer: the send of message {@code seq} succeeded (SEND_OK). */
    public void acknowledged(int seq) {
        if (acknowledged.compareAndSet(seq, 0, 1)) {
            acknowledgedCount.increment();
        }
    }

    /** The consumer got a message with this body (null: none) at {@code nowNanos} ({@link System#nanoTime()}). */
    public void delivered(ByteBuffer body, long nowNanos) {
        if (body == null || body.remaining() < BodyHeader.HEADER_BYTES) {
            foreignDeliveries.increment();
            return;
        }
        ByteBuffer header = body.duplicate();
        long bodyRunId = header.getLong();
        long seq = header.getLong();
        long sentNanos = header.getLong();
        if (bodyRunId != runId || seq < 0 || seq >= deliveries.length()) {
            foreignDeliveries.increment();
            return;
        }
        if (deliveries.incrementAndGet((int) seq) == 1) {
            endToEnd.record(nowNanos - sentNanos);
            firstDeliveryNanos.compareAndSet(0, nowNanos);
            lastDeliveryNanos.accumulateAndGet(nowNanos, Math::max);
            uniqueDeliveries.increment();
        } else {
            duplicateDeliveries.increment();
        }
    }

    /**
     * Waits until every acknowledged message was delivered, at most {@code drainSeconds}, and at most
     * {@code drainIdleSeconds} without a new delivery (the tools' --drain-seconds and --drain-idle-seconds): what is
     * missing then counts as lost; both count from the first delivery, and before it the wait is
     * {@code drainIdleSeconds}. The caller's thread (main) sleeps between looks.
     */
    public void awaitDelivered(long drainSeconds, long drainIdleSeconds) throws InterruptedException {
        awaitDelivered(drainSeconds, drainIdleSeconds, drainIdleSeconds, () -> { });
    }

    /**
     * As {@link #awaitDelivered(long, long)}, but before the first delivery the wait is {@code firstDeliverySeconds}
     * (--first-delivery-seconds), and {@code drainSeconds} counts from the first delivery: a consumer's start (route,
     * rebalance, heartbeat) is not the drain. The official 5.5.0 push consumer can wait one heartbeat interval (30 s)
     * before its first pull is answered: its first rebalance raises the subscription version and asks for a heartbeat
     * that carries it while its periodic heartbeat, due at the same second, holds the heartbeat lock, so the request
     * is dropped ("sendHeartbeatToAllBrokerWithLockV2 lock heartBeat, but failed") and every pull is answered
     * SUBSCRIPTION_NOT_LATEST until the next periodic one. Runs {@code onFirstDelivery} on the caller's thread within
     * {@link #FIRST_DELIVERY_POLL_INTERVAL_MS} of the first delivery (e.g. to read the broker's CPU time there).
     */
    public void awaitDelivered(long drainSeconds, long drainIdleSeconds, long firstDeliverySeconds,
                               Runnable onFirstDelivery) throws InterruptedException {
        long startNanos = System.nanoTime();
        long lastChangeNanos = startNanos;
        long lastDelivered = -1;
        boolean started = false;
        while (true) {
            long delivered = uniqueDeliveries();
            long now = System.nanoTime();
            if (!started && delivered > 0) {
                started = true;
                onFirstDelivery.run();
                startNanos = now;
            }
            if (delivered >= acknowledgedCount() && lost() == 0) {
                return;
            }
            if (delivered != lastDelivered) {
                lastDelivered = delivered;
                lastChangeNanos = now;
            }
            if (!started) {
                if (now - startNanos > TimeUnit.SECONDS.toNanos(firstDeliverySeconds)) {
                    System.out.println("drain: no delivery within --first-delivery-seconds " + firstDeliverySeconds);
                    return;
                }
                Thread.sleep(FIRST_DELIVERY_POLL_INTERVAL_MS);
                continue;
            }
            if (now - startNanos > TimeUnit.SECONDS.toNanos(drainSeconds)) {
                System.out.println("drain: --drain-seconds " + drainSeconds + " reached");
                return;
            }
            if (now - lastChangeNanos > TimeUnit.SECONDS.toNanos(drainIdleSeconds)) {
                System.out.println("drain: nothing new for --drain-idle-seconds " + drainIdleSeconds);
                return;
            }
            Thread.sleep(DRAIN_POLL_INTERVAL_MS);
        }
    }

    public long acknowledgedCount() {
        return acknowledgedCount.sum();
    }

    /** Messages of this run delivered at least once. */
    public long uniqueDeliveries() {
        return uniqueDeliveries.sum();
    }

    /** Deliveries beyond the first of a message. */
    public long duplicateDeliveries() {
        return duplicateDeliveries.sum();
    }

    public long foreignDeliveries() {
        return foreignDeliveries.sum();
    }

    /** Acknowledged (sent successfully) and never delivered. Scans every message: call once a second at most. */
    public long lost() {
        long lost = 0;
        for (int seq = 0; seq < acknowledged.length(); seq++) {
            if (acknowledged.get(seq) == 1 && deliveries.get(seq) == 0) {
                lost++;
            }
        }
        return lost;
    }

    /** Delivered though its send did not succeed (a send that timed out but was stored). */
    public long deliveredUnacknowledged() {
        long count = 0;
        for (int seq = 0; seq < deliveries.length(); seq++) {
            if (acknowledged.get(seq) == 0 && deliveries.get(seq) > 0) {
                count++;
            }
        }
        return count;
    }

    public LatencyHistogram endToEnd() {
        return endToEnd;
    }

    /** {@link System#nanoTime()} of the first delivery of any message of this run, 0 before it. */
    public long firstDeliveryNanos() {
        return firstDeliveryNanos.get();
    }

    /** {@link System#nanoTime()} of the latest first delivery of a message of this run, 0 before any. */
    public long lastDeliveryNanos() {
        return lastDeliveryNanos.get();
    }
}
