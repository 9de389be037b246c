package io.vrmq.client.producer;

import io.vrmq.client.MessageQueue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * Round robin over a topic's writable queues, skipping (in this order of preference) the broker of the failed
 * previous attempt and brokers the {@link BrokerFaultTable} avoids; when every queue is skipped, plain round robin.
 * The official client's MQFaultStrategy.selectOneMessageQueue. Confined to the producer's context.
 */
public final class SendQueueChooser {
    private final BrokerFaultTable faults;
    private final boolean isFaultAvoidanceEnabled;
    private final Map<String, Integer> nextIndexByTopic = new HashMap<>();

    public SendQueueChooser(BrokerFaultTable faults, boolean isFaultAvoidanceEnabled) {
        this.faults = faults;
        this.isFaultAvoidanceEnabled = isFaultAvoidanceEnabled;
    }

    /** @param lastBrokerName the broker the previous attempt of this send failed on, or null */
    public MessageQueue choose(String topic, List<MessageQueue> queues, String lastBrokerName) {
        if (queues.isEmpty()) {
            throw new IllegalArgumentException("topic " + topic + " has no writable queue");
        }
        Predicate<MessageQueue> notLast = queue -> !queue.brokerName().equals(lastBrokerName);
        Predicate<MessageQueue> available = queue -> faults.isAvailable(queue.brokerName());
        MessageQueue chosen = null;
        if (isFaultAvoidanceEnabled) {
            chosen = next(topic, queues, notLast.and(available));
            if (chosen == null) {
                chosen = next(topic, queues, available);
            }
        }
        if (chosen == null) {
            chosen = next(topic, queues, notLast);
        }
        return chosen != null ? chosen : next(topic, queues, queue -> true);
    }

    private MessageQueue next(String topic, List<MessageQueue> queues, Predicate<MessageQueue> accepts) {
        int start = nextIndexByTopic.computeIfAbsent(topic, ignored -> ThreadLocalRandom.current().nextInt(1 << 16));
        for (int step = 0; step < queues.size(); step++) {
            int index = Math.floorMod(start + step, queues.size());
            MessageQueue queue = queues.get(index);
            if (accepts.test(queue)) {
                nextIndexByTopic.put(topic, start + step + 1);
                return queue;
            }
        }
        return null;
    }
}
