package io.vrmq.broker.ha;

import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The waits of replicated sends, released in end-offset order by a monotone check; no threads, no network. */
class ReplicaAckWaitersTest {
    @Test
    void aReleaseCompletesEveryWaitTheCheckAcceptsAndNoOther() {
        ReplicaAckWaiters waiters = new ReplicaAckWaiters();
        Future<SlaveAck> first = waiters.await(100, Long.MAX_VALUE);
        Future<SlaveAck> exact = waiters.await(200, Long.MAX_VALUE);
        Future<SlaveAck> later = waiters.await(300, Long.MAX_VALUE);

        waiters.release(endOffset -> endOffset <= 200);

        assertEquals(SlaveAck.OK, first.result());
        assertEquals(SlaveAck.OK, exact.result());
        assertFalse(later.isComplete());
        assertEquals(1, waiters.size());
    }

    @Test
    void expiryEndsOnlyWaitsPastTheirDeadline() {
        ReplicaAckWaiters waiters = new ReplicaAckWaiters();
        Future<SlaveAck> early = waiters.await(100, 1_000);
        Future<SlaveAck> late = waiters.await(100, 5_000);

        waiters.expire(2_000);

        assertEquals(SlaveAck.TIMEOUT, early.result());
        assertFalse(late.isComplete());
        waiters.release(endOffset -> endOffset <= 100);
        assertEquals(SlaveAck.OK, late.result());
        assertEquals(0, waiters.size());
    }

    @Test
    void shutdownEndsEveryWait() {
        ReplicaAckWaiters waiters = new ReplicaAckWaiters();
        Future<SlaveAck> waiting = waiters.await(100, Long.MAX_VALUE);
        waiters.endAll(SlaveAck.NOT_AVAILABLE);
        assertEquals(SlaveAck.NOT_AVAILABLE, waiting.result());
    }
}
