package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.ConsumeOrderlyStatus;
import io.vrmq.client.ReceivedMessage;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectConsumerTest {
    private final AtomicLong clockMs = new AtomicLong(1_000);

    @Test
    void aConcurrentListenerSuccessIsCrSuccessWithTheTimeSpent() {
        DirectConsumer direct = DirectConsumer.concurrently((messages, queue) -> {
            clockMs.addAndGet(7);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        }, clockMs::get);

        DirectConsumer.Result result = direct.consume(message()).result();

        assertEquals(DirectConsumer.CMResult.CR_SUCCESS, result.consumeResult());
        assertFalse(result.order());
        assertTrue(result.autoCommit());
        assertEquals(7, result.spentTimeMills());
    }

    @Test
    void aConcurrentReconsumeLaterIsCrLater() {
        DirectConsumer direct = DirectConsumer.concurrently(
            (messages, queue) -> Future.succeededFuture(ConsumeConcurrentlyStatus.RECONSUME_LATER), clockMs::get);

        assertEquals(DirectConsumer.CMResult.CR_LATER, direct.consume(message()).result().consumeResult());
    }

    @Test
    void aThrowingListenerIsCrThrowExceptionWithTheStackAsRemark() {
        DirectConsumer direct = DirectConsumer.concurrently((messages, queue) -> {
            throw new IllegalStateException("boom");
        }, clockMs::get);

        DirectConsumer.Result result = direct.consume(message()).result();

        assertEquals(DirectConsumer.CMResult.CR_THROW_EXCEPTION, result.consumeResult());
        assertTrue(result.remark().contains("boom"), result.remark());
    }

    @Test
    void aListenerReturningNullIsCrReturnNull() {
        DirectConsumer direct = DirectConsumer.concurrently((messages, queue) -> null, clockMs::get);

        DirectConsumer.Result result = direct.consume(message()).result();

        assertEquals(DirectConsumer.CMResult.CR_RETURN_NULL, result.consumeResult());
        assertNull(result.remark());
    }

    @Test
    void anOrderlySuspendIsAnOrderedCrLater() {
        DirectConsumer direct = DirectConsumer.orderly(
            (messages, queue) -> Future.succeededFuture(ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT),
            clockMs::get);

        DirectConsumer.Result result = direct.consume(message()).result();

        assertEquals(DirectConsumer.CMResult.CR_LATER, result.consumeResult());
        assertTrue(result.order());
    }

    private static ReceivedMessage message() {
        return new ReceivedMessage("T", 0, 0, 0, 0, 0, new byte[] {1}, Map.of(), 0, null, 0, null, 0, 0, 0, 0,
            "ID", "b");
    }
}
