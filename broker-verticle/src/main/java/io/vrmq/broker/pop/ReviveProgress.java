package io.vrmq.broker.pop;

import java.util.TreeMap;

/**
 * Per revive queue, the first revive-log offset a restart must read again: the lowest record whose checkpoint is
 * still open (pinned), or one past the newest record when none is. Everything below it is resolved: its effect is
 * in the consumer offsets (pop offsets, orderly commits) or it was acked or revived. It is kept as the consumer
 * offset of {@link PopNames#REVIVE_GROUP} on the revive topic, as RocketMQ keeps its revive offset, so a slave copies
 * it with the other offsets. The consumer-offset file is snapshotted on the broker's context, between whole POP state
 * changes, so the revive offsets and the pop offsets it holds always agree: no record below a stored revive offset
 * has an effect the stored pop offsets lack.
 * <p>
 * Not thread-safe: owned by the {@link InflightTable}.
 */
final class ReviveProgress {
    /** Per revive queue: pinned record offsets, with how many checkpoints hold each (normally one). */
    private final TreeMap<Long, Integer>[] pinned;
    private final long[] appendedEnd;

    @SuppressWarnings("unchecked")
    ReviveProgress(int queueCount, long[] startOffsets) {
        this.pinned = new TreeMap[queueCount];
        this.appendedEnd = new long[queueCount];
        for (int i = 0; i < queueCount; i++) {
            pinned[i] = new TreeMap<>();
            appendedEnd[i] = startOffsets[i];
        }
    }

    int queueCount() {
        return pinned.length;
    }

    void pin(int reviveQueueId, long logOffset) {
        pinned[reviveQueueId].merge(logOffset, 1, Integer::sum);
        noteAppended(reviveQueueId, logOffset);
    }

    void unpin(int reviveQueueId, long logOffset) {
        pinned[reviveQueueId].computeIfPresent(logOffset, (offset, holders) -> holders > 1 ? holders - 1 : null);
    }

    /** A record at {@code logOffset} was written (or read back at recovery). */
    void noteAppended(int reviveQueueId, long logOffset) {
        appendedEnd[reviveQueueId] = Math.max(appendedEnd[reviveQueueId], logOffset + 1);
    }

    long reviveOffset(int reviveQueueId) {
        TreeMap<Long, Integer> open = pinned[reviveQueueId];
        return open.isEmpty() ? appendedEnd[reviveQueueId] : open.firstKey();
    }

    int pinnedCount() {
        int count = 0;
        for (TreeMap<Long, Integer> open : pinned) {
            count += open.size();
        }
        return count;
    }
}
