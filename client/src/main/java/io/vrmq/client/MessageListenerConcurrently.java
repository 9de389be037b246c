package io.vrmq.client;

import io.vertx.core.Future;

import java.util.List;

/**
 * Consumes messages in any order, many at once. Called on the consumer's context: return a future and do blocking
 * work elsewhere ({@code vertx.executeBlocking}). A failed future or a thrown exception counts as RECONSUME_LATER.
 */
@FunctionalInterface
public interface MessageListenerConcurrently {
    Future<ConsumeConcurrentlyStatus> consume(List<ReceivedMessage> messages, MessageQueue queue);
}
