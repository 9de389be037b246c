package io.vrmq.client;

import io.vertx.core.Future;

import java.util.List;

/**
 * Consumes the messages of a queue one batch after the other, in queue order; the queue is locked on the broker for
 * this consumer meanwhile. Called on the consumer's context: return a future and do blocking work elsewhere.
 * A failed future or a thrown exception counts as SUSPEND_CURRENT_QUEUE_A_MOMENT.
 */
@FunctionalInterface
public interface MessageListenerOrderly {
    Future<ConsumeOrderlyStatus> consume(List<ReceivedMessage> messages, MessageQueue queue);
}
