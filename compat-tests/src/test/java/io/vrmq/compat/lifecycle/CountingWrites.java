package io.vrmq.compat.lifecycle;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.vrmq.compat.support.Await;

/**
 * Load that leaves state behind: a thread writes 1, 2, 3, ... through an official client call (a NameServer KV entry,
 * a controller setting) until stopped, and remembers the last value that was acknowledged. A server stopped under
 * this load must come back with that value or a later one. Thread-safe.
 */
final class CountingWrites {
    /** After a failed write (the server is down), wait this long before the next. */
    private static final long RETRY_PAUSE_MS = 100;

    /** One write of {@code value}; returns normally only once the server acknowledged it. */
    @FunctionalInterface
    interface Write {
        void write(long value) throws Exception;
    }

    private final AtomicBoolean isWriting = new AtomicBoolean(true);
    private final AtomicLong lastAcknowledged = new AtomicLong();
    private final AtomicLong next = new AtomicLong(1);
    private final Thread thread;

    private CountingWrites(String name, Write write) {
        this.thread = new Thread(() -> run(write), "lifecycle-writes-" + name);
        thread.setDaemon(true);
    }

    /** @param firstValue where counting starts (above what earlier loads wrote) */
    static CountingWrites start(String name, long firstValue, Write write) {
        CountingWrites writes = new CountingWrites(name, write);
        writes.next.set(firstValue);
        writes.thread.start();
        return writes;
    }

    long lastAcknowledged() {
        return lastAcknowledged.get();
    }

    /** The next value this load would write: where a later load continues. */
    long nextValue() {
        return next.get();
    }

    void awaitAcknowledged(long value, Duration timeout) {
        Await.until("a write of " + value + " or more acknowledged", timeout, () -> lastAcknowledged.get() >= value);
    }

    /** Stops writing and waits for the write in progress to end. */
    void stop() throws InterruptedException {
        isWriting.set(false);
        thread.join();
    }

    private void run(Write write) {
        while (isWriting.get()) {
            long value = next.getAndIncrement();
            try {
                write.write(value);
                lastAcknowledged.set(value);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                pause();
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            isWriting.set(false);
        }
    }
}
