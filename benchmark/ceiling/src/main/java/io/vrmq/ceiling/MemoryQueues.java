package io.vrmq.ceiling;

import java.util.HashMap;
import java.util.Map;

/**
 * What the ceiling keeps: the records sent to each queue (in the off-heap {@link RecordArena}, at most the newest
 * {@code maxMessagesPerQueue} per queue), the queue count each topic was created with, and the consumer offsets groups committed. Nothing reaches a
 * disk. Event loop only.
 */
final class MemoryQueues {
    private final RecordArena arena;
    private final int maxMessagesPerQueue;
    private final int defaultQueueCount;
    private final Map<QueueKey, RecordRing> queues = new HashMap<>();
    private final Map<String, Integer> queueCounts = new HashMap<>();
    private final Map<String, Long> committedOffsets = new HashMap<>();

    MemoryQueues(RecordArena arena, int maxMessagesPerQueue, int defaultQueueCount) {
        this.arena = arena;
        this.maxMessagesPerQueue = maxMessagesPerQueue;
        this.defaultQueueCount = defaultQueueCount;
    }

    RecordRing queue(QueueKey key) {
        return queues.computeIfAbsent(key, created -> new RecordRing(maxMessagesPerQueue));
    }

    /** The queue without what the arena dropped, or {@code null} when nothing was ever sent to it. */
    RecordRing existing(QueueKey key) {
        RecordRing ring = queues.get(key);
        if (ring != null) {
            ring.trim(arena);
        }
        return ring;
    }

    RecordArena arena() {
        return arena;
    }

    void createTopic(String topic, int queueCount) {
        queueCounts.put(topic, queueCount);
    }

    /** Every topic is routed: one created with a queue count keeps it, any other gets the default. */
    int queueCount(String topic) {
        return queueCounts.getOrDefault(topic, defaultQueueCount);
    }

    void commit(String group, QueueKey key, long offset) {
        committedOffsets.put(group + '@' + key.topic() + '@' + key.queueId(), offset);
    }

    /** The committed offset, or {@code null}. */
    Long committed(String group, QueueKey key) {
        return committedOffsets.get(group + '@' + key.topic() + '@' + key.queueId());
    }
}
