package io.vrmq.load;

import io.vrmq.loadcommon.LatencyHistogram;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * What was sent and what came back, per message of one measured run: the producer marks each message its broker
 * answered SEND_OK, the push consumer's listener counts each delivery. Messages are told apart by the header
 * {@link MessageLoadBench} writes at the start of every body: run id, sequence number, {@link System#nanoTime()} at
 * send (producer and consumer run in this JVM, so the end-to-end latency is exact and immune to clock steps).
 * Bodies of other runs (an earlier run on the same topic) are counted as foreign and otherwise ignored. Thread-safe:
 * producer callbacks and the consumer's consume threads record concurrently.
 */
final class DeliveryTracker implements MessageListenerConcurrently {

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

    DeliveryTracker(long runId, int capacity) {
        this.runId = runId;
        this.acknowledged = new AtomicIntegerArray(capacity);
        this.deliveries = new AtomicIntegerArray(capacity);
    }

    /** The producer: the broker answered SEND_OK for message {@code seq}. */
    void acknowledged(int seq) {
        if (acknowledged.compareAndSet(seq, 0, 1)) {
            acknowledgedCount.increment();
        }
    }

    @Override
    public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        long now = System.nanoTime();
        for (MessageExt message : messages) {
            delivered(message.getBody(), now);
        }
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }

    private void delivered(byte[] body, long nowNanos) {
        if (body == null || body.length < MessageLoadBench.HEADER_BYTES) {
            foreignDeliveries.increment();
            return;
        }
        ByteBuffer header = ByteBuffer.wrap(body);
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

    long acknowledgedCount() {
        return acknowledgedCount.sum();
    }

    /** Messages of this run delivered at least once. */
    long uniqueDeliveries() {
        return uniqueDeliveries.sum();
    }

    /** Deliveries beyond the first of a message. */
    long duplicateDeliveries() {
        return duplicateDeliveries.sum();
    }

    long foreignDeliveries() {
        return foreignDeliveries.sum();
    }

    /** Acknowledged (SEND_OK) and never delivered. Scans every message: call once a second at most. */
    long lost() {
        long lost = 0;
        for (int seq = 0; seq < acknowledged.length(); seq++) {
            if (acknowledged.get(seq) == 1 && deliveries.get(seq) == 0) {
                lost++;
            }
        }
        return lost;
    }

    /** Delivered though the producer never got SEND_OK for it (a send that timed out but was stored). */
    long deliveredUnacknowledged() {
        long count = 0;
        for (int seq = 0; seq < deliveries.length(); seq++) {
            if (acknowledged.get(seq) == 0 && deliveries.get(seq) > 0) {
                count++;
            }
        }
        return count;
    }

    LatencyHistogram endToEnd() {
        return endToEnd;
    }

    /** {@link System#nanoTime()} of the first delivery of any message of this run, 0 before it. */
    long firstDeliveryNanos() {
        return firstDeliveryNanos.get();
    }

    /** {@link System#nanoTime()} of the latest first delivery of a message of this run, 0 before any. */
    long lastDeliveryNanos() {
        return lastDeliveryNanos.get();
    }
}
