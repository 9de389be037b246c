package io.vrmq.broker.pop;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The last orderly (FIFO) pop of one queue by one group, RocketMQ's ConsumerOrderInfo: which offsets it handed out,
 * which were acked, when each becomes visible again and how often each was handed out before. While any of its
 * messages is unacked and still invisible, the queue gives the group nothing new (unless the same attemptId asks
 * again: a retried request gets the same messages back). An orderly pop never moves the consumer offset at pop time:
 * acks commit it up to the first unacked message, and an expired pop is simply popped again from there, in place,
 * with its delivery counts raised.
 * <p>
 * Mutable, owned by the {@link InflightTable} on the broker's context.
 *
 * @param consumedCounts per offset, how many times it was handed out before this pop (only counts above 0)
 */
public final class OrderCheckpoint {
    /** commitAndNext: the offset is none of this pop's. */
    public static final long ILLEGAL = -1;
    /** commitAndNext: the ack is for an older pop (popTime differs); RocketMQ ignores it. */
    public static final long STALE = -2;

    private final QueueKey queue;
    private final String attemptId;
    private final long popTime;
    private final long invisibleTime;
    private final long[] offsets;
    private final Map<Long, Integer> consumedCounts;
    private final int reviveQueueId;
    private final long reviveLogOffset;
    private final Map<Long, Long> nextVisibleTimes = new HashMap<>();
    private long commitBits;

    public OrderCheckpoint(QueueKey queue, String attemptId, long popTime, long invisibleTime, long[] offsets,
                           Map<Long, Integer> consumedCounts, int reviveQueueId, long reviveLogOffset) {
        if (offsets.length == 0 || offsets.length > Long.SIZE) {
            throw new IllegalStateException("an orderly pop holds 1.." + Long.SIZE + " messages, not "
                + offsets.length);
        }
        this.queue = queue;
        this.attemptId = attemptId;
        this.popTime = popTime;
        this.invisibleTime = invisibleTime;
        this.offsets = offsets;
        this.consumedCounts = Map.copyOf(consumedCounts);
        this.reviveQueueId = reviveQueueId;
        this.reviveLogOffset = reviveLogOffset;
    }

    /**
     * RocketMQ's mergeOffsetConsumedCount: each offset this new pop shares with {@code previous} was handed out once
     * more, unless both pops carry the same attemptId (a retried request: the counts stay).
     */
    public static Map<Long, Integer> countsAfter(OrderCheckpoint previous, String attemptId, long[] offsets) {
        if (previous == null) {
            return Map.of();
        }
        if (previous.attemptId != null && previous.attemptId.equals(attemptId)) {
            return previous.consumedCounts;
        }
        Map<Long, Integer> counts = new HashMap<>();
        for (long offset : offsets) {
            if (previous.indexOf(offset) >= 0) {
                counts.put(offset, previous.consumedCounts.getOrDefault(offset, 0) + 1);
            }
        }
        return counts;
    }

    public QueueKey queue() {
        return queue;
    }

    public String attemptId() {
        return attemptId;
    }

    public long popTime() {
        return popTime;
    }

    public long invisibleTime() {
        return invisibleTime;
    }

    public int reviveQueueId() {
        return reviveQueueId;
    }

    public long reviveLogOffset() {
        return reviveLogOffset;
    }

    public int messageCount() {
        return offsets.length;
    }

    public long offsetAt(int index) {
        return offsets[index];
    }

    public int indexOf(long queueOffset) {
        int index = Arrays.binarySearch(offsets, queueOffset);
        return index >= 0 ? index : -1;
    }

    public int consumedCount(long queueOffset) {
        return consumedCounts.getOrDefault(queueOffset, 0);
    }

    public Map<Long, Integer> consumedCounts() {
        return consumedCounts;
    }

    public boolean isAcked(int index) {
        return (commitBits & (1L << index)) != 0;
    }

    public int unackedCount() {
        return offsets.length - Long.bitCount(commitBits);
    }

    /** RocketMQ's needBlock: some message is unacked and still invisible, and the asker is another attempt. */
    public boolean blocks(String askingAttemptId, long nowMs) {
        if (attemptId != null && attemptId.equals(askingAttemptId)) {
            return false;
        }
        for (int i = 0; i < offsets.length; i++) {
            if (!isAcked(i) && nowMs < nextVisibleMs(i)) {
                return true;
            }
        }
        return false;
    }

    /** When the message at {@code index} becomes visible again (a change of invisible time moves it). */
    public long nextVisibleMs(int index) {
        Long changed = nextVisibleTimes.get(offsets[index]);
        return changed != null ? changed : popTime + invisibleTime;
    }

    /**
     * RocketMQ's commitAndNext: acks the message and returns the offset the consumer offset moves to (the first
     * unacked message, or past the last), {@link #STALE} for another pop's ack, {@link #ILLEGAL} for an offset this
     * pop does not hold.
     */
    long commitAndNext(long queueOffset, long ackPopTime) {
        if (ackPopTime != popTime) {
            return STALE;
        }
        int index = indexOf(queueOffset);
        if (index < 0) {
            return ILLEGAL;
        }
        commitBits |= 1L << index;
        return nextOffset();
    }

    /** The first unacked offset, or one past the last when all are acked. */
    public long nextOffset() {
        for (int i = 0; i < offsets.length; i++) {
            if (!isAcked(i)) {
                return offsets[i];
            }
        }
        return offsets[offsets.length - 1] + 1;
    }

    /** False for another pop's change (popTime differs), as RocketMQ ignores it. */
    boolean changeVisibleTime(long queueOffset, long changePopTime, long nextVisibleMs) {
        if (changePopTime != popTime || indexOf(queueOffset) < 0) {
            return false;
        }
        nextVisibleTimes.put(queueOffset, nextVisibleMs);
        return true;
    }

    /** The offsets, in order (a copy). */
    public long[] offsets() {
        return offsets.clone();
    }

    @Override
    public String toString() {
        return "orderly pop " + queue + " popTime " + popTime + " offsets " + Arrays.toString(offsets) + " acked "
            + Long.bitCount(commitBits) + " attempt " + attemptId;
    }
}
