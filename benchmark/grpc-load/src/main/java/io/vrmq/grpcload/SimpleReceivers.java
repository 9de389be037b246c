package io.vrmq.grpcload;

import io.vrmq.loadcommon.DeliveryTracker;
import io.vrmq.loadcommon.LatencyHistogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;

/**
 * The receiving side of a phase: {@code receivers} threads sharing one SDK {@link SimpleConsumer}, each in a loop of
 * receive a batch (a long poll of the consumer's await duration when nothing is there), hand every body to the
 * {@link DeliveryTracker}, ack every message of the batch at once ({@code ackAsync}), wait for those acks, receive
 * again. This is how an application drains a SimpleConsumer at speed: the SDK has no batch ack, so one AckMessage
 * RPC per message, overlapped within the batch. Started and stopped by the main thread; the receiving threads and
 * the SDK's callback threads record concurrently.
 */
final class SimpleReceivers {

    /** After a failed receive, before the next one: a server that refuses does not become a busy loop. */
    private static final long RETRY_PAUSE_MS = 100;

    private final SimpleConsumer consumer;
    private final DeliveryTracker tracker;
    private final int batch;
    private final Duration invisible;
    private final long ackWaitMs;
    private final List<Thread> threads = new ArrayList<>();
    private final LongAdder acked = new LongAdder();
    private final LongAdder ackFailures = new LongAdder();
    private final LongAdder receiveFailures = new LongAdder();
    private final LatencyHistogram ackLatencies = new LatencyHistogram();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private volatile boolean isRunning = true;

    SimpleReceivers(SimpleConsumer consumer, DeliveryTracker tracker, GrpcLoadOptions options) {
        this.consumer = consumer;
        this.tracker = tracker;
        this.batch = options.batch();
        this.invisible = Duration.ofSeconds(options.invisibleSeconds());
        this.ackWaitMs = 2L * options.requestTimeoutMs();
        for (int i = 0; i < options.receivers(); i++) {
            threads.add(new Thread(this::receiveLoop, "bench-receive-" + i));
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Lets each thread finish its receive in progress (at most the await duration plus the request timeout). */
    void stop(long joinTimeoutMs) throws InterruptedException {
        isRunning = false;
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(joinTimeoutMs);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
        }
    }

    private void receiveLoop() {
        while (isRunning) {
            List<MessageView> messages;
            try {
                messages = consumer.receive(batch, invisible);
            } catch (Exception e) {
                if (isRunning) {
                    receiveFailures.increment();
                    firstError.compareAndSet(null, "receive: " + e);
                    pause();
                }
                continue;
            }
            long nowNanos = System.nanoTime();
            for (MessageView message : messages) {
                tracker.delivered(message.getBody(), nowNanos);
            }
            ackAll(messages);
        }
    }

    private void ackAll(List<MessageView> messages) {
        List<CompletableFuture<Void>> acks = new ArrayList<>(messages.size());
        for (MessageView message : messages) {
            long startNanos = System.nanoTime();
            acks.add(consumer.ackAsync(message).whenComplete((ignored, failure) -> {
                if (failure == null) {
                    ackLatencies.record(System.nanoTime() - startNanos);
                    acked.increment();
                } else {
                    ackFailures.increment();
                    firstError.compareAndSet(null, "ack: " + failure);
                }
            }));
        }
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(ackWaitMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            isRunning = false;
        } catch (Exception failedOrLate) {
            // counted per ack in the callbacks above; a late ack still lands there
        }
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            isRunning = false;
        }
    }

    long ackedCount() {
        return acked.sum();
    }

    long ackFailures() {
        return ackFailures.sum();
    }

    long receiveFailures() {
        return receiveFailures.sum();
    }

    LatencyHistogram ackLatencies() {
        return ackLatencies;
    }

    String firstError() {
        return firstError.get();
    }
}
