package io.vrmq.broker.admin;

import java.util.Comparator;

/**
 * RocketMQ's MessageQueue as it appears in admin and lock bodies: {@code {"brokerName":"b","queueId":0,"topic":"T"}}
 * (fields in fastjson's alphabetical order). Ordered by topic, broker name, then queue id, so that tables built from
 * it come out the same way every time.
 */
public record MessageQueue(String brokerName, int queueId, String topic) implements Comparable<MessageQueue> {
    private static final Comparator<MessageQueue> ORDER = Comparator.comparing(MessageQueue::topic,
            Comparator.nullsFirst(Comparator.naturalOrder()))
        .thenComparing(MessageQueue::brokerName, Comparator.nullsFirst(Comparator.naturalOrder()))
        .thenComparingInt(MessageQueue::queueId);

    @Override
    public int compareTo(MessageQueue other) {
        return ORDER.compare(this, other);
    }
}
