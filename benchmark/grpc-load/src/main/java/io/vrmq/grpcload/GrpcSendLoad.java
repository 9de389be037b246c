package io.vrmq.grpcload;

import io.vrmq.loadcommon.DeliveryTracker;
import io.vrmq.loadcommon.LatencyHistogram;
import io.vrmq.loadcommon.SendProgress;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.message.Message;
import org.apache.rocketmq.client.apis.producer.Producer;

/**
 * One send phase through the SDK's {@link Producer}: {@code count} messages to one topic from {@code threads}
 * sending threads, either sync ({@code send}: each thread waits for its answer, {@code threads} in flight) or async
 * ({@code sendAsync}: at most {@code window} in flight over all threads, a semaphore permit per send), optionally
 * paced to a rate. A send either succeeds (the SDK has no "stored, but not as durably as asked" status) or fails
 * after the SDK's own retries. Stops at the count, at the time limit, or when no answer frees a window slot for
 * 30 s. Latency runs from just before {@code send} to the answer (the future's completion for async, so it includes
 * the SDK's own queueing). Not reusable: one instance per phase; the sending threads and the SDK's callback threads
 * record concurrently.
 */
final class GrpcSendLoad implements SendProgress {

    private static final long STALL_TIMEOUT_MS = 30_000;

    private final Producer producer;
    private final ClientServiceProvider provider;
    private final GrpcLoadOptions options;
    private final String topic;
    private final int count;
    private final long runId;
    private final DeliveryTracker tracker;
    private final byte[] template;
    private final Semaphore window;
    private final AtomicInteger nextSeq = new AtomicInteger();
    private final AtomicBoolean isStopped = new AtomicBoolean();
    private final LongAdder ok = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LatencyHistogram latencies = new LatencyHistogram();
    private final AtomicReference<LatencyHistogram> intervalLatencies = new AtomicReference<>(new LatencyHistogram());
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private volatile long startNanos;

    /** @param tracker told about every successful send, or null (warm-up) */
    GrpcSendLoad(Producer producer, ClientServiceProvider provider, GrpcLoadOptions options, String topic, int count,
                 long runId, DeliveryTracker tracker) {
        this.producer = producer;
        this.provider = provider;
        this.options = options;
        this.topic = topic;
        this.count = count;
        this.runId = runId;
        this.tracker = tracker;
        this.window = new Semaphore(options.window());
        this.template = new byte[options.size()];
        for (int i = GrpcLoadBench.HEADER_BYTES; i < template.length; i++) {
            template[i] = (byte) ('a' + i % 26);
        }
    }

    /** Sends, waits for every answer, and returns what it measured. Called once, from main. */
    Summary run() throws InterruptedException {
        startNanos = System.nanoTime();
        long deadlineNanos = startNanos + TimeUnit.SECONDS.toNanos(options.maxSendSeconds());
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < options.threads(); i++) {
            Thread sender = new Thread(() -> sendLoop(deadlineNanos), "bench-send-" + i);
            sender.start();
            senders.add(sender);
        }
        for (Thread sender : senders) {
            sender.join();
        }
        long answerWaitMs = STALL_TIMEOUT_MS + options.requestTimeoutMs();
        if (options.async() && !window.tryAcquire(options.window(), answerWaitMs, TimeUnit.MILLISECONDS)) {
            fail("async answers still missing " + answerWaitMs + " ms after the last send");
        }
        long elapsedNanos = System.nanoTime() - startNanos;
        long completed = ok.sum();
        return new Summary(Math.min(nextSeq.get(), count), completed, errors.sum(), elapsedNanos,
            latencies.percentileMicros(0.50, completed), latencies.percentileMicros(0.99, completed),
            latencies.percentileMicros(0.999, completed), firstError.get());
    }

    private void sendLoop(long deadlineNanos) {
        while (!isStopped.get()) {
            int seq = nextSeq.getAndIncrement();
            if (seq >= count) {
                return;
            }
            if (System.nanoTime() > deadlineNanos) {
                fail("--max-send-seconds " + options.maxSendSeconds() + " reached after " + seq + " messages");
                isStopped.set(true);
                return;
            }
            pace(seq);
            if (!options.async()) {
                sendSync(seq);
                continue;
            }
            try {
                if (!window.tryAcquire(STALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                    fail("no async send answered for " + STALL_TIMEOUT_MS + " ms");
                    isStopped.set(true);
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            sendAsync(seq);
        }
    }

    private void sendSync(int seq) {
        long sentNanos = System.nanoTime();
        try {
            producer.send(message(seq, sentNanos));
            answered(seq, sentNanos);
        } catch (Exception e) {
            fail(e.toString());
        }
    }

    private void sendAsync(int seq) {
        long sentNanos = System.nanoTime();
        try {
            producer.sendAsync(message(seq, sentNanos)).whenComplete((receipt, failure) -> {
                if (failure == null) {
                    answered(seq, sentNanos);
                } else {
                    fail(failure.toString());
                }
                window.release();
            });
        } catch (RuntimeException e) {
            fail(e.toString());
            window.release();
        }
    }

    private void answered(int seq, long sentNanos) {
        long latencyNanos = System.nanoTime() - sentNanos;
        latencies.record(latencyNanos);
        intervalLatencies.get().record(latencyNanos);
        ok.increment();
        if (tracker != null) {
            tracker.acknowledged(seq);
        }
    }

    private Message message(int seq, long sentNanos) {
        byte[] body = template.clone();
        ByteBuffer.wrap(body).putLong(runId).putLong(seq).putLong(sentNanos);
        return provider.newMessageBuilder().setTopic(topic).setBody(body).build();
    }

    /** With --rate: message {@code seq} leaves no earlier than seq / rate seconds after the start. */
    private void pace(int seq) {
        if (options.rate() == 0) {
            return;
        }
        long dueNanos = startNanos + seq * 1_000_000_000L / options.rate();
        for (long wait = dueNanos - System.nanoTime(); wait > 0; wait = dueNanos - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
    }

    private void fail(String error) {
        errors.increment();
        firstError.compareAndSet(null, error);
    }

    @Override
    public long okCount() {
        return ok.sum();
    }

    @Override
    public long errorCount() {
        return errors.sum();
    }

    @Override
    public int count() {
        return count;
    }

    /** The p99 in µs of the sends answered since the previous call (a fresh histogram each time); progress only. */
    @Override
    public long intervalP99Micros() {
        return intervalLatencies.getAndSet(new LatencyHistogram()).percentileMicros(0.99);
    }

    /**
     * @param attempted messages handed to the producer (less than the count when the phase stopped early)
     * @param ok        answered successfully
     * @param errors    failed after the SDK's retries: an exception, a timeout, a server status
     */
    record Summary(long attempted, long ok, long errors, long elapsedNanos, long p50Micros, long p99Micros,
                   long p999Micros, String firstError) {

        double perSecond() {
            return elapsedNanos == 0 ? 0 : ok * 1e9 / elapsedNanos;
        }
    }
}
