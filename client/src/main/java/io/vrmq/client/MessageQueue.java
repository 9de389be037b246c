package io.vrmq.client;

import java.util.Comparator;

/**
 * One queue of a topic on one broker group, RocketMQ's MessageQueue. Its JSON form (lock bodies) is
 * {@code {"brokerName":"b","queueId":0,"topic":"T"}}. Ordered by topic, broker name, then queue id: the order the
 * allocation strategies rely on so that every consumer of a group sorts the same way. Immutable value.
 */
public record MessageQueue(String topic, String brokerName, int queueId) implements Comparable<MessageQueue> {
    private static final Comparator<MessageQueue> ORDER = Comparator.comparing(MessageQueue::topic)
        .thenComparing(MessageQueue::brokerName)
        .thenComparingInt(MessageQueue::queueId);

    @Override
    public int compareTo(MessageQueue other) {
        return ORDER.compare(this, other);
    }

    /** "topic@brokerName@queueId", the key of the broadcast offset file. */
    public String key() {
        return topic + "@" + brokerName + "@" + queueId;
    }
}
