package io.vrmq.broker.pop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What is in flight on this broker, in memory: the open non-orderly checkpoints by key (for acks) and by revive
 * time (for the revive service), the last orderly pop of each queue, and the revive progress they pin. A restart
 * rebuilds it from the revive log ({@link InflightRecovery}); in between, every change here follows a record the
 * {@link ReviveLog} made durable. The in-flight counts are mirrored into {@link PopInflight} for the admin views.
 * <p>
 * Memory: about 150 bytes per open checkpoint (a pop of one queue, up to 32 messages), bounded by
 * popCkMaxBufferSize; one orderly pop per queue a group consumes in order.
 * <p>
 * Not thread-safe: confined to the broker's context.
 */
final class InflightTable {
    private static final Comparator<Checkpoint> BY_REVIVE_TIME = Comparator.comparingLong(Checkpoint::reviveTimeMs)
        .thenComparingLong(Checkpoint::sequence);

    private final Map<CheckpointKey, Checkpoint> byKey = new HashMap<>();
    private final TreeSet<Checkpoint> byReviveTime = new TreeSet<>(BY_REVIVE_TIME);
    private final Map<QueueKey, OrderCheckpoint> orders = new HashMap<>();
    private final ReviveProgress progress;
    private final PopInflight counts;
    private final ProgressSink progressSink;
    private final long[] publishedProgress;
    private long sequence;

    /** Where the revive offset of a revive queue goes whenever it moves (the consumer offset table). */
    @FunctionalInterface
    interface ProgressSink {
        void reviveOffsetMoved(int reviveQueueId, long reviveOffset);
    }

    InflightTable(long[] startOffsets, PopInflight counts, ProgressSink progressSink) {
        this.progress = new ReviveProgress(startOffsets.length, startOffsets);
        this.counts = counts;
        this.progressSink = progressSink;
        this.publishedProgress = startOffsets.clone();
    }

    int reviveQueueCount() {
        return progress.queueCount();
    }

    long nextSequence() {
        return ++sequence;
    }

    /** Open checkpoints (non-orderly pops with unacked messages). */
    int checkpointCount() {
        return byKey.size();
    }

    /** A record was written at {@code logOffset} of a revive queue and its checkpoint is not registered yet. */
    void pin(int reviveQueueId, long logOffset) {
        progress.pin(reviveQueueId, logOffset);
    }

    /** A record that opens nothing (an ack, a revived mark) was written or read back. */
    void noteAppended(int reviveQueueId, long logOffset) {
        progress.noteAppended(reviveQueueId, logOffset);
        publish(reviveQueueId);
    }

    /** Takes over the pin {@link #pin} placed for its record; false (and no change) for a duplicate key. */
    boolean add(Checkpoint checkpoint) {
        CheckpointKey key = CheckpointKey.of(checkpoint);
        if (byKey.containsKey(key)) {
            progress.unpin(checkpoint.reviveQueueId(), checkpoint.reviveLogOffset());
            publish(checkpoint.reviveQueueId());
            return false;
        }
        byKey.put(key, checkpoint);
        byReviveTime.add(checkpoint);
        counts.add(checkpoint.queue(), checkpoint.unackedCount());
        return true;
    }

    Checkpoint find(QueueKey queue, long startOffset, long popTime) {
        return byKey.get(new CheckpointKey(queue, startOffset, popTime));
    }

    /** Acks one message; closes the checkpoint once all are acked. False when it was acked already. */
    boolean ack(Checkpoint checkpoint, int index) {
        if (checkpoint.isResolved() || !checkpoint.ack(index)) {
            return false;
        }
        counts.add(checkpoint.queue(), -1);
        if (checkpoint.isFullyAcked()) {
            resolve(checkpoint);
        }
        return true;
    }

    /** Closes a checkpoint (all acked, or its unacked messages revived): it no longer pins the revive progress. */
    void resolve(Checkpoint checkpoint) {
        if (checkpoint.isResolved()) {
            return;
        }
        checkpoint.markResolved();
        byKey.remove(CheckpointKey.of(checkpoint));
        byReviveTime.remove(checkpoint);
        counts.add(checkpoint.queue(), -checkpoint.unackedCount());
        progress.unpin(checkpoint.reviveQueueId(), checkpoint.reviveLogOffset());
        publish(checkpoint.reviveQueueId());
    }

    /** Up to {@code max} open checkpoints whose revive time is at or before {@code nowMs}, earliest first. */
    List<Checkpoint> due(long nowMs, int max) {
        List<Checkpoint> due = new ArrayList<>();
        Iterator<Checkpoint> it = byReviveTime.iterator();
        while (it.hasNext() && due.size() < max) {
            Checkpoint next = it.next();
            if (next.reviveTimeMs() > nowMs) {
                break;
            }
            due.add(next);
        }
        return due;
    }

    OrderCheckpoint order(QueueKey queue) {
        return orders.get(queue);
    }

    /** The queue's new orderly pop replaces its previous one, which stops pinning the revive progress. */
    void putOrder(OrderCheckpoint pop) {
        OrderCheckpoint previous = orders.put(pop.queue(), pop);
        if (previous != null) {
            release(previous);
        }
        counts.addOrderly(pop.queue(), pop.unackedCount());
    }

    /** RocketMQ's commitAndNext on the queue's orderly pop; see {@link OrderCheckpoint#commitAndNext}. */
    long commitOrder(OrderCheckpoint pop, long offset, long popTime) {
        int before = pop.unackedCount();
        long next = pop.commitAndNext(offset, popTime);
        counts.addOrderly(pop.queue(), pop.unackedCount() - before);
        if (pop.unackedCount() == 0 && orders.get(pop.queue()) == pop) {
            orders.remove(pop.queue());
            release(pop);
        }
        return next;
    }

    /** Forgets the queue's orderly pop (its consumer offset was reset). */
    void clearOrder(QueueKey queue) {
        OrderCheckpoint previous = orders.remove(queue);
        if (previous != null) {
            release(previous);
        }
    }

    /** Forgets everything (this broker stops being master); the revive log keeps it all for the next master. */
    void clear() {
        byKey.clear();
        byReviveTime.clear();
        orders.clear();
        counts.clear();
    }

    long reviveOffset(int reviveQueueId) {
        return progress.reviveOffset(reviveQueueId);
    }

    private void release(OrderCheckpoint pop) {
        counts.addOrderly(pop.queue(), -pop.unackedCount());
        progress.unpin(pop.reviveQueueId(), pop.reviveLogOffset());
        publish(pop.reviveQueueId());
    }

    private void publish(int reviveQueueId) {
        long offset = progress.reviveOffset(reviveQueueId);
        if (offset != publishedProgress[reviveQueueId]) {
            publishedProgress[reviveQueueId] = offset;
            progressSink.reviveOffsetMoved(reviveQueueId, offset);
        }
    }

    /** RocketMQ's checkpoint key without the broker name (this table is one broker's). */
    private record CheckpointKey(QueueKey queue, long startOffset, long popTime) {
        static CheckpointKey of(Checkpoint checkpoint) {
            return new CheckpointKey(checkpoint.queue(), checkpoint.startOffset(), checkpoint.popTime());
        }
    }
}
