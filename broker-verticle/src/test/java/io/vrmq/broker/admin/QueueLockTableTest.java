package io.vrmq.broker.admin;

import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Lock ownership and expiry, with a clock the test moves. */
class QueueLockTableTest {
    private static final long MAX_LIVE_MS = 60_000;
    private static final MessageQueue QUEUE = new MessageQueue("b", 0, "T");

    private final AtomicLong nowMs = new AtomicLong(1_000_000);
    private final QueueLockTable locks = new QueueLockTable(nowMs::get, MAX_LIVE_MS);

    @Test
    void aLockHeldByAnotherClientIsRefusedUntilItExpires() {
        locks.tryLockBatch("G", Set.of(QUEUE), "c1");
        nowMs.addAndGet(MAX_LIVE_MS);
        assertEquals(Set.of(), locks.tryLockBatch("G", Set.of(QUEUE), "c2"));
        nowMs.addAndGet(1);
        assertEquals(Set.of(QUEUE), locks.tryLockBatch("G", Set.of(QUEUE), "c2"));
    }

    @Test
    void relockingRefreshesTheLockSoItDoesNotExpire() {
        locks.tryLockBatch("G", Set.of(QUEUE), "c1");
        nowMs.addAndGet(MAX_LIVE_MS - 1);
        assertEquals(Set.of(QUEUE), locks.tryLockBatch("G", Set.of(QUEUE), "c1"));
        nowMs.addAndGet(MAX_LIVE_MS - 1);
        assertEquals(Set.of(), locks.tryLockBatch("G", Set.of(QUEUE), "c2"));
    }

    @Test
    void unlockByAnotherClientLeavesTheLockInPlace() {
        locks.tryLockBatch("G", Set.of(QUEUE), "c1");
        locks.unlockBatch("G", Set.of(QUEUE), "c2");
        assertEquals(Set.of(), locks.tryLockBatch("G", Set.of(QUEUE), "c2"));
    }

    @Test
    void locksOfDifferentGroupsAreIndependent() {
        locks.tryLockBatch("G1", Set.of(QUEUE), "c1");
        assertEquals(Set.of(QUEUE), locks.tryLockBatch("G2", Set.of(QUEUE), "c2"));
    }
}
