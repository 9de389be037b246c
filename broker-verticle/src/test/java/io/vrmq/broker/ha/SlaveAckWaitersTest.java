package io.vrmq.broker.ha;

import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class SlaveAckWaitersTest {
    @Test
    void anAckCompletesEveryWaitAtOrBelowItAndNoOther() {
        SlaveAckWaiters waiters = new SlaveAckWaiters();
        Future<SlaveAck> first = waiters.await(100, Long.MAX_VALUE);
        Future<SlaveAck> exact = waiters.await(200, Long.MAX_VALUE);
        Future<SlaveAck> later = waiters.await(300, Long.MAX_VALUE);

        waiters.acked(200);

        assertEquals(SlaveAck.OK, first.result());
        assertEquals(SlaveAck.OK, exact.result());
        assertFalse(later.isComplete());
        assertEquals(1, waiters.size());
    }

    @Test
    void expiryEndsOnlyWaitsPastTheirDeadline() {
        SlaveAckWaiters waiters = new SlaveAckWaiters();
        Future<SlaveAck> early = waiters.await(100, 1_000);
        Future<SlaveAck> late = waiters.await(100, 5_000);

        waiters.expire(2_000);

        assertEquals(SlaveAck.TIMEOUT, early.result());
        assertFalse(late.isComplete());
        waiters.acked(100);
        assertEquals(SlaveAck.OK, late.result());
        assertEquals(0, waiters.size());
    }

    @Test
    void shutdownEndsEveryWait() {
        SlaveAckWaiters waiters = new SlaveAckWaiters();
        Future<SlaveAck> waiting = waiters.await(100, Long.MAX_VALUE);
        waiters.endAll(SlaveAck.NOT_AVAILABLE);
        assertEquals(SlaveAck.NOT_AVAILABLE, waiting.result());
    }
}
