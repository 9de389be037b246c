package io.vrmq.store.flush;

import io.vrmq.store.FlushStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flusher thread of the CommitLog.
 * <ul>
 * <li>Group commit (both modes): appends that want durability register a waiter; the thread takes every waiter
 * registered so far and does ONE force for all of them. Waiters that arrive during a force are served by the next
 * one, so with N concurrent writers there are far fewer forces than messages.</li>
 * <li>Interval flush (the durability rule of ASYNC_FLUSH; harmless under SYNC_FLUSH): every
 * {@code flushIntervalCommitLogMs} it forces when at least {@code flushCommitLogLeastPages} pages are dirty, or everything once {@code flushCommitLogThoroughIntervalMs} has passed. A crash of the machine
 * (not just the process) can therefore lose what was written since the last force: at most one interval's worth of
 * appends, or a few pages more when the writes were slow (their queue offsets are not lost: see
 * {@code ReservedOffsets}). A killed process loses nothing that reached the mapped pages: the kernel still writes
 * them.</li>
 * <li>Waiters not served within {@code syncFlushTimeoutMs} complete with FLUSH_DISK_TIMEOUT ({@link #expireWaiters},
 * run by the store's scheduler so a force stuck in the kernel cannot hold the timeouts back).</li>
 * </ul>
 * Threads: {@link #awaitDurable} from the writer (or any thread), {@link #run} on its own thread.
 */
public final class CommitLogFlusher implements Runnable {
    private static final int PAGE_BYTES = 4096;
    private static final Logger log = LoggerFactory.getLogger(CommitLogFlusher.class);

    private final ForceTarget target;
    private final long intervalMs;
    private final int leastPages;
    private final long thoroughIntervalMs;
    private final long timeoutNanos;
    private final Object lock = new Object();
    private List<FlushWaiter> pending = new ArrayList<>();       // guarded by lock
    private volatile List<FlushWaiter> inFlight = List.of();
    private volatile boolean running = true;
    private long lastThoroughFlushMs = System.currentTimeMillis();
    private final AtomicLong forceCount = new AtomicLong();
    private volatile long lastForceMicros;
    private volatile long maxForceMicros;

    public CommitLogFlusher(ForceTarget target, long intervalMs, int leastPages,
                            long thoroughIntervalMs, long syncFlushTimeoutMs) {
        this.target = target;
        this.intervalMs = intervalMs;
        this.leastPages = leastPages;
        this.thoroughIntervalMs = thoroughIntervalMs;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(syncFlushTimeoutMs);
    }

    /** A future completing with FLUSH_OK once bytes below {@code offset} are forced, or FLUSH_DISK_TIMEOUT. */
    public CompletableFuture<FlushStatus> awaitDurable(long offset) {
        FlushWaiter waiter = new FlushWaiter(offset, System.nanoTime() + timeoutNanos);
        if (target.flushedOffset() >= offset) {
            waiter.future.complete(FlushStatus.FLUSH_OK);
            return waiter.future;
        }
        synchronized (lock) {
            if (!running) {
                waiter.future.complete(FlushStatus.FLUSH_DISK_TIMEOUT);
                return waiter.future;
            }
            pending.add(waiter);
            lock.notifyAll();
        }
        return waiter.future;
    }

    @Override
    public void run() {
        while (running) {
            List<FlushWaiter> batch = takeWaiters();
            if (!batch.isEmpty()) {
                inFlight = batch;
                forceAndComplete(batch);
                inFlight = List.of();
            } else {
                intervalFlush();
            }
        }
        List<FlushWaiter> last = takeAll();
        forceAndComplete(last);
    }

    /** Stops the thread after one last force (see {@link #run}); waiters arriving later time out at once. */
    public void shutdown() {
        synchronized (lock) {
            running = false;
            lock.notifyAll();
        }
    }

    /** Completes waiters past their deadline with FLUSH_DISK_TIMEOUT. Scheduler thread. */
    public void expireWaiters() {
        long now = System.nanoTime();
        for (FlushWaiter waiter : inFlight) {
            expire(waiter, now);
        }
        synchronized (lock) {
            for (FlushWaiter waiter : pending) {
                expire(waiter, now);
            }
        }
    }

    public long forceCount() {
        return forceCount.get();
    }

    public long lastForceMicros() {
        return lastForceMicros;
    }

    public long maxForceMicros() {
        return maxForceMicros;
    }

    private static void expire(FlushWaiter waiter, long nowNanos) {
        if (nowNanos - waiter.deadlineNanos >= 0 && waiter.future.complete(FlushStatus.FLUSH_DISK_TIMEOUT)) {
            log.warn("flush of commit log offset {} timed out", waiter.offset);
        }
    }

    private List<FlushWaiter> takeWaiters() {
        synchronized (lock) {
            long waitUntil = System.currentTimeMillis() + intervalMs;
            while (running && pending.isEmpty()) {
                long leftMs = waitUntil - System.currentTimeMillis();
                if (leftMs <= 0) {
                    break;
                }
                try {
                    lock.wait(leftMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    running = false;
                }
            }
            return swap();
        }
    }

    private List<FlushWaiter> takeAll() {
        synchronized (lock) {
            return swap();
        }
    }

    private List<FlushWaiter> swap() {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<FlushWaiter> taken = pending;
        pending = new ArrayList<>();
        return taken;
    }

    private void forceAndComplete(List<FlushWaiter> batch) {
        long flushed = force();
        for (FlushWaiter waiter : batch) {
            if (waiter.offset <= flushed) {
                waiter.future.complete(FlushStatus.FLUSH_OK);
            } else {
                waiter.future.complete(FlushStatus.FLUSH_DISK_TIMEOUT);   // asked beyond the written log
            }
        }
    }

    private void intervalFlush() {
        long dirtyBytes = target.writtenOffset() - target.flushedOffset();
        long nowMs = System.currentTimeMillis();
        boolean thorough = nowMs - lastThoroughFlushMs >= thoroughIntervalMs;
        if (dirtyBytes > 0 && (thorough || dirtyBytes >= (long) leastPages * PAGE_BYTES)) {
            force();
        }
        if (thorough) {
            lastThoroughFlushMs = nowMs;
        }
    }

    private long force() {
        long startNanos = System.nanoTime();
        long flushed;
        try {
            flushed = target.force();
        } catch (RuntimeException e) {
            log.error("commit log force failed; waiters will time out", e);
            return target.flushedOffset();
        }
        long micros = (System.nanoTime() - startNanos) / 1000;
        forceCount.incrementAndGet();
        lastForceMicros = micros;
        if (micros > maxForceMicros) {
            maxForceMicros = micros;
        }
        return flushed;
    }
}
