package io.vrmq.broker.pop;

import java.util.Arrays;

/**
 * One non-orderly pop of one queue that still has unacked messages: RocketMQ's PopCheckPoint. The messages are the
 * queue offsets {@code startOffset + diffs[i]} (at most {@link PopConfig#MAX_POP_MESSAGES}, so one int holds the ack
 * bits); when popTime + invisibleTime passes, the revive service puts every unacked one into the group's retry topic.
 * A change of invisible time acks the message here and gives it a checkpoint of its own.
 * <p>
 * Mutable ack state, owned by the {@link InflightTable} on the broker's context; never shared across threads.
 *
 * @param reviveQueueId  revive queue its record was written to (what the receipt handle carries)
 * @param reviveLogOffset queue offset of its record in that revive queue (pins the revive progress)
 * @param nextOffset     the queue's pop offset after this pop (a restart restores it from the record)
 * @param isSuspend      come back without one more reconsume (CHANGE_MESSAGE_INVISIBLETIME with suspend)
 */
public final class Checkpoint {
    private final QueueKey queue;
    private final long startOffset;
    private final long popTime;
    private final long invisibleTime;
    private final int[] diffs;
    private final long nextOffset;
    private final int reviveQueueId;
    private final long reviveLogOffset;
    private final boolean isSuspend;
    private final long sequence;
    private int ackBits;
    private boolean isResolved;

    public Checkpoint(QueueKey queue, long startOffset, long popTime, long invisibleTime, int[] diffs,
                      long nextOffset, int reviveQueueId, long reviveLogOffset, boolean isSuspend, long sequence) {
        if (diffs.length == 0 || diffs.length > Integer.SIZE) {
            throw new IllegalStateException("a checkpoint holds 1.." + Integer.SIZE + " messages, not " + diffs.length);
        }
        this.queue = queue;
        this.startOffset = startOffset;
        this.popTime = popTime;
        this.invisibleTime = invisibleTime;
        this.diffs = diffs;
        this.nextOffset = nextOffset;
        this.reviveQueueId = reviveQueueId;
        this.reviveLogOffset = reviveLogOffset;
        this.isSuspend = isSuspend;
        this.sequence = sequence;
    }

    public QueueKey queue() {
        return queue;
    }

    public long startOffset() {
        return startOffset;
    }

    public long popTime() {
        return popTime;
    }

    public long invisibleTime() {
        return invisibleTime;
    }

    public long reviveTimeMs() {
        return popTime + invisibleTime;
    }

    public long nextOffset() {
        return nextOffset;
    }

    public int reviveQueueId() {
        return reviveQueueId;
    }

    public long reviveLogOffset() {
        return reviveLogOffset;
    }

    public boolean isSuspend() {
        return isSuspend;
    }

    /** Tie-breaker among checkpoints due at the same instant: the order they were registered. */
    public long sequence() {
        return sequence;
    }

    public int messageCount() {
        return diffs.length;
    }

    public long offsetAt(int index) {
        return startOffset + diffs[index];
    }

    /** The message's index in this checkpoint, or -1 when it holds no such queue offset. */
    public int indexOf(long queueOffset) {
        long diff = queueOffset - startOffset;
        if (diff < 0 || diff > Integer.MAX_VALUE) {
            return -1;
        }
        int index = Arrays.binarySearch(diffs, (int) diff);
        return index >= 0 ? index : -1;
    }

    public boolean isAcked(int index) {
        return (ackBits & (1 << index)) != 0;
    }

    /** Marks a message acked; false when it already was. */
    boolean ack(int index) {
        if (isAcked(index)) {
            return false;
        }
        ackBits |= 1 << index;
        return true;
    }

    public int unackedCount() {
        return diffs.length - Integer.bitCount(ackBits);
    }

    public boolean isFullyAcked() {
        return unackedCount() == 0;
    }

    public boolean isResolved() {
        return isResolved;
    }

    void markResolved() {
        isResolved = true;
    }

    /** The offset diffs from startOffset, as RocketMQ's checkpoint JSON lists them (a copy). */
    public int[] diffs() {
        return diffs.clone();
    }

    @Override
    public String toString() {
        return "checkpoint " + queue + " start " + startOffset + " popTime " + popTime + " invisible "
            + invisibleTime + " messages " + diffs.length + " acked " + Integer.bitCount(ackBits) + " revive queue "
            + reviveQueueId + "@" + reviveLogOffset;
    }
}
