package io.vrmq.client;

import java.util.List;

/**
 * Picks the queue of a send, RocketMQ's MessageQueueSelector: messages with the same {@code arg} (an order id, a
 * key) go to the same queue and so stay in order. Called on the producer's context: must not block.
 */
@FunctionalInterface
public interface MessageQueueSelector {
    MessageQueue select(List<MessageQueue> queues, Message message, Object arg);

    /**
     * RocketMQ's SelectMessageQueueByHash, the same arithmetic ({@code |arg.hashCode() % queues|}), so a key lands on
     * the same queue whichever client sends it.
     */
    static MessageQueueSelector byHash() {
        return (queues, message, arg) -> queues.get(Math.abs(arg.hashCode() % queues.size()));
    }
}
