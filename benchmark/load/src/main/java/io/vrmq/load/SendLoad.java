package io.vrmq.load;

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

import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * One send phase: {@code count} messages round the given topics through the official producers (message {@code seq}
 * to topic {@code seq % topics} through {@link ProducerPool#producerFor}), from {@code threads} sending
 * threads, either sync (each thread waits for its answer: closed loop, {@code threads} in flight) or async (answers
 * arrive on callbacks; at most {@code window} in flight over all threads, a semaphore permit per send), optionally
 * paced to a rate. Stops at the count, at the time limit, or when no answer frees a window slot for 30 s. Latency is
 * measured from just before {@code send} to the answer (the callback for async, so it includes the client's own
 * queueing). Not reusable: one instance per phase.
 */
final class SendLoad implements SendProgress {

    private static final long STALL_TIMEOUT_MS = 30_000;

    private final ProducerPool producers;
    private final MessageLoadOptions options;
    private final List<String> topics;
    private final int count;
    private final long runId;
    private final DeliveryTracker tracker;
    private final byte[] template;
    private final Semaphore window;
    private final AtomicInteger nextSeq = new AtomicInteger();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final LongAdder ok = new LongAdder();
    private final LongAdder notOk = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LatencyHistogram latencies = new LatencyHistogram();
    private final AtomicReference<LatencyHistogram> intervalLatencies = new AtomicReference<>(new LatencyHistogram());
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private volatile long startNanos;

    /**
     * @param tracker told about every SEND_OK, or null (warm-up)
     */
    SendLoad(ProducerPool producers, MessageLoadOptions options, List<String> topics, int count, long runId,
             DeliveryTracker tracker) {
        this.producers = producers;
        this.options = options;
        this.topics = List.copyOf(topics);
        this.count = count;
        this.runId = runId;
        this.tracker = tracker;
        this.window = new Semaphore(options.window());
        this.template = new byte[options.size()];
        for (int i = MessageLoadBench.HEADER_BYTES; i < template.length; i++) {
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
        long answerWaitMs = STALL_TIMEOUT_MS + options.sendTimeoutMs();
        if (options.async() && !window.tryAcquire(options.window(), answerWaitMs, TimeUnit.MILLISECONDS)) {
            fail("async answers still missing " + answerWaitMs + " ms after the last send");
        }
        long elapsedNanos = System.nanoTime() - startNanos;
        long completed = ok.sum();
        return new Summary(nextSeq.get() > count ? count : nextSeq.get(), completed, notOk.sum(), errors.sum(),
            elapsedNanos, latencies.percentileMicros(0.50, completed), latencies.percentileMicros(0.99, completed),
            latencies.percentileMicros(0.999, completed), firstError.get());
    }

    private void sendLoop(long deadlineNanos) {
        while (!stopped.get()) {
            int seq = nextSeq.getAndIncrement();
            if (seq >= count) {
                return;
            }
            if (System.nanoTime() > deadlineNanos) {
                fail("--max-send-seconds " + options.maxSendSeconds() + " reached after " + seq + " messages");
                stopped.set(true);
                return;
            }
            pace(seq);
            if (options.async()) {
                try {
                    if (!window.tryAcquire(STALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                        fail("no async send answered for " + STALL_TIMEOUT_MS + " ms");
                        stopped.set(true);
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                sendAsync(seq);
            } else {
                sendSync(seq);
            }
        }
    }

    private void sendSync(int seq) {
        long sentNanos = System.nanoTime();
        try {
            SendResult result = producers.producerFor(seq).send(message(seq, sentNanos), options.sendTimeoutMs());
            answered(seq, sentNanos, result);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            fail(e.toString());
        }
    }

    private void sendAsync(int seq) {
        long sentNanos = System.nanoTime();
        try {
            producers.producerFor(seq).send(message(seq, sentNanos), new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    answered(seq, sentNanos, result);
                    window.release();
                }

                @Override
                public void onException(Throwable failure) {
                    fail(failure.toString());
                    window.release();
                }
            }, options.sendTimeoutMs());
        } catch (Exception e) {
            fail(e.toString());
            window.release();
        }
    }

    private void answered(int seq, long sentNanos, SendResult result) {
        long latencyNanos = System.nanoTime() - sentNanos;
        if (result.getSendStatus() == SendStatus.SEND_OK) {
            latencies.record(latencyNanos);
            intervalLatencies.get().record(latencyNanos);
            ok.increment();
            if (tracker != null) {
                tracker.acknowledged(seq);
            }
        } else {
            notOk.increment();
            firstError.compareAndSet(null, "send status " + result.getSendStatus());
        }
    }

    private Message message(int seq, long sentNanos) {
        byte[] body = template.clone();
        ByteBuffer.wrap(body).putLong(runId).putLong(seq).putLong(sentNanos);
        return new Message(topics.get(seq % topics.size()), body);
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

    /** The messages this phase sends at most. */
    @Override
    public int count() {
        return count;
    }

    @Override
    public long okCount() {
        return ok.sum();
    }

    @Override
    public long errorCount() {
        return errors.sum() + notOk.sum();
    }

    /** The SEND_OK latencies as {@link LatencyHistogram#toSparse}: a split run merges the JVMs' histograms. */
    String latenciesSparse() {
        return latencies.toSparse();
    }

    long startNanos() {
        return startNanos;
    }

    /** The p99 in µs of the sends answered since the previous call (a fresh histogram each time); progress only. */
    @Override
    public long intervalP99Micros() {
        return intervalLatencies.getAndSet(new LatencyHistogram()).percentileMicros(0.99);
    }

    /**
     * @param attempted messages handed to the producer (less than the count when the phase stopped early)
     * @param ok        answered SEND_OK
     * @param notOk     answered with another status (FLUSH_DISK_TIMEOUT, SLAVE_NOT_AVAILABLE, ...): stored but not
     *                  as durably as asked; not counted in throughput or latency
     * @param errors    failed: an exception, a timeout, a broker error code
     */
    record Summary(long attempted, long ok, long notOk, long errors, long elapsedNanos, long p50Micros,
                   long p99Micros, long p999Micros, String firstError) {

        double perSecond() {
            return elapsedNanos == 0 ? 0 : ok * 1e9 / elapsedNanos;
        }
    }
}
