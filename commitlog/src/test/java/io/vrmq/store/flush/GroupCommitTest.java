package io.vrmq.store.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vrmq.store.FlushStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class GroupCommitTest {

    /** A log whose force blocks until the test lets it go, so the test controls when waiters arrive. */
    private static final class GatedLog implements ForceTarget {
        final AtomicLong written = new AtomicLong();
        final AtomicLong flushed = new AtomicLong();
        final AtomicInteger forces = new AtomicInteger();
        final CountDownLatch firstForceStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public long writtenOffset() {
            return written.get();
        }

        @Override
        public long flushedOffset() {
            return flushed.get();
        }

        @Override
        public long force() {
            long target = written.get();
            forces.incrementAndGet();
            firstForceStarted.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            flushed.set(target);
            return target;
        }
    }

    @Test
    void sixtyFourWaitersArrivingDuringOneForceShareTheNextForce() throws Exception {
        GatedLog log = new GatedLog();
        CommitLogFlusher flusher = new CommitLogFlusher(log, 60_000, 4, 600_000, 10_000);
        Thread thread = new Thread(flusher, "test-flusher");
        thread.start();

        log.written.set(100);
        CompletableFuture<FlushStatus> first = flusher.awaitDurable(100);
        assertTrue(log.firstForceStarted.await(5, TimeUnit.SECONDS));
        List<CompletableFuture<FlushStatus>> waiters = new ArrayList<>();
        for (int i = 1; i <= 64; i++) {
            log.written.set(100 + i * 10L);
            waiters.add(flusher.awaitDurable(100 + i * 10L));
        }
        log.release.countDown();

        assertEquals(FlushStatus.FLUSH_OK, first.get(5, TimeUnit.SECONDS));
        for (CompletableFuture<FlushStatus> waiter : waiters) {
            assertEquals(FlushStatus.FLUSH_OK, waiter.get(5, TimeUnit.SECONDS));
        }
        assertEquals(2, log.forces.get(), "one force for the first waiter, ONE more for the 64 that queued behind it");
        flusher.shutdown();
        thread.join();
    }

    @Test
    void aWaiterNotForcedInTimeCompletesWithFlushDiskTimeout() throws Exception {
        GatedLog log = new GatedLog();
        CommitLogFlusher flusher = new CommitLogFlusher(log, 60_000, 4, 600_000, 1);
        Thread thread = new Thread(flusher, "test-flusher");
        thread.start();
        log.written.set(10);
        CompletableFuture<FlushStatus> waiter = flusher.awaitDurable(10);
        assertTrue(log.firstForceStarted.await(5, TimeUnit.SECONDS));
        while (!waiter.isDone()) {   // the store's scheduler does this every syncFlushTimeoutMs / 10
            flusher.expireWaiters();
            Thread.onSpinWait();
        }
        assertEquals(FlushStatus.FLUSH_DISK_TIMEOUT, waiter.get());
        log.release.countDown();
        flusher.shutdown();
        thread.join();
    }

    @Test
    void theIntervalFlusherForcesOnItsOwnOnceLeastPagesAreDirty() throws Exception {
        GatedLog log = new GatedLog();
        log.release.countDown();
        CommitLogFlusher flusher = new CommitLogFlusher(log, 5, 4, 600_000, 10_000);
        Thread thread = new Thread(flusher, "test-flusher");
        thread.start();
        log.written.set(4 * 4096);   // exactly flushCommitLogLeastPages pages, and nobody waits on them
        assertTrue(log.firstForceStarted.await(5, TimeUnit.SECONDS));
        flusher.shutdown();
        thread.join();
        assertEquals(4 * 4096, log.flushed.get());
    }

    @Test
    void anAlreadyDurableOffsetCompletesAtOnceWithoutAForce() throws Exception {
        GatedLog log = new GatedLog();
        log.flushed.set(50);
        CommitLogFlusher flusher = new CommitLogFlusher(log, 60_000, 4, 600_000, 10_000);
        assertEquals(FlushStatus.FLUSH_OK, flusher.awaitDurable(50).get());
        assertEquals(0, log.forces.get());
    }
}
