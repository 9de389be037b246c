package io.vrmq.client;

import java.util.List;

/**
 * Shares a topic's queues among a group's consumers (RocketMQ's AllocateMessageQueueStrategy). Every consumer runs it
 * with the same sorted inputs and must arrive at a disjoint cover, so it must be a pure function of them.
 */
@FunctionalInterface
public interface AllocateStrategy {
    /**
     * @param queues    every readable queue of the topic, sorted
     * @param clientIds every live consumer of the group, sorted
     * @return the queues {@code clientId} consumes
     */
    List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues, List<String> clientIds);
}
