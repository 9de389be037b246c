package io.vrmq.broker.timer;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The held timer messages not yet delivered, bucketed by slot (TIMER_OUT_MS, a whole second): slot → the entries'
 * queue offsets and commit-log offsets in two growable arrays, in the order they were scanned (ascending queue
 * offset). About 16 bytes per held message and one bucket per distinct second; no object per message. A bucket also
 * keeps the keys recalls cancelled in it ({@link TimerDeleteMark}), dropped with the bucket; {@link #deleteKeyCount}
 * counts them for {@link TimerFlowControl}.
 * Not thread-safe: owned by {@link TimerMessageService} on its context.
 */
final class TimerIndex {
    private static final int INITIAL_BUCKET_CAPACITY = 4;

    private final TreeMap<Long, Bucket> buckets = new TreeMap<>();
    private long size;
    private long deleteKeyCount;

    void add(long slotMs, long queueOffset, long commitLogOffset) {
        buckets.computeIfAbsent(slotMs, slot -> new Bucket()).add(queueOffset, commitLogOffset);
        size++;
    }

    boolean isEmpty() {
        return buckets.isEmpty();
    }

    long size() {
        return size;
    }

    /** Recalled keys held, over all slots. */
    long deleteKeyCount() {
        return deleteKeyCount;
    }

    /** Slot of the earliest held message; only when not empty. */
    long firstSlotMs() {
        return buckets.firstKey();
    }

    /** Up to {@code max} leading entries of the earliest slot, as [queueOffsets, commitLogOffsets]. */
    long[][] peekFirst(int max) {
        Bucket first = buckets.firstEntry().getValue();
        int count = Math.min(max, first.end - first.start);
        return new long[][] {
            Arrays.copyOfRange(first.queueOffsets, first.start, first.start + count),
            Arrays.copyOfRange(first.commitLogOffsets, first.start, first.start + count)};
    }

    /**
     * Notes that the held message of {@code slotMs} with {@code key} is cancelled; false (nothing noted) when the
     * slot holds nothing, so the message was delivered already or never held.
     */
    boolean addDeleteKey(long slotMs, String key) {
        Bucket bucket = buckets.get(slotMs);
        if (bucket == null) {
            return false;
        }
        if (bucket.deleteKeys == null) {
            bucket.deleteKeys = new HashSet<>();
        }
        if (bucket.deleteKeys.add(key)) {
            deleteKeyCount++;
        }
        return true;
    }

    /**
     * The keys cancelled in the earliest slot (empty when none); only when not empty. A read-only view, not a copy:
     * the caller may read it on another thread only while nothing changes this index (the service reads it while
     * its turn waits for the read).
     */
    Set<String> firstDeleteKeys() {
        Set<String> keys = buckets.firstEntry().getValue().deleteKeys;
        return keys == null ? Set.of() : Collections.unmodifiableSet(keys);
    }

    /** Forgets the {@code count} leading entries of the earliest slot (they were delivered). */
    void removeFirst(int count) {
        Map.Entry<Long, Bucket> first = buckets.firstEntry();
        Bucket bucket = first.getValue();
        if (count > bucket.end - bucket.start) {
            throw new IllegalStateException("removing " + count + " entries of slot " + first.getKey() + " holding "
                + (bucket.end - bucket.start));
        }
        bucket.start += count;
        size -= count;
        if (bucket.start == bucket.end) {
            buckets.pollFirstEntry();
            deleteKeyCount -= bucket.deleteKeys == null ? 0 : bucket.deleteKeys.size();
        }
    }

    /** Lowest queue offset still held, or {@code fallback} when none: one look per bucket. */
    long minQueueOffset(long fallback) {
        long min = Long.MAX_VALUE;
        for (Bucket bucket : buckets.values()) {
            min = Math.min(min, bucket.queueOffsets[bucket.start]);
        }
        return min == Long.MAX_VALUE ? fallback : min;
    }

    /** One slot's entries; [start, end) are held. */
    private static final class Bucket {
        private long[] queueOffsets = new long[INITIAL_BUCKET_CAPACITY];
        private long[] commitLogOffsets = new long[INITIAL_BUCKET_CAPACITY];
        private int start;
        private int end;
        private Set<String> deleteKeys;

        void add(long queueOffset, long commitLogOffset) {
            if (end == queueOffsets.length) {
                compactOrGrow();
            }
            queueOffsets[end] = queueOffset;
            commitLogOffsets[end] = commitLogOffset;
            end++;
        }

        private void compactOrGrow() {
            int held = end - start;
            int capacity = held * 2 < queueOffsets.length ? queueOffsets.length : queueOffsets.length * 2;
            queueOffsets = Arrays.copyOfRange(queueOffsets, start, start + capacity);
            commitLogOffsets = Arrays.copyOfRange(commitLogOffsets, start, start + capacity);
            start = 0;
            end = held;
        }
    }
}
