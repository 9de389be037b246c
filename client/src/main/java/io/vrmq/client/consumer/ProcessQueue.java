package io.vrmq.client.consumer;

import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The pulled, not yet consumed messages of one assigned queue, by queue offset (RocketMQ's ProcessQueue). The
 * offset to commit is the smallest offset still held, or one past the largest ever held when it is empty, so a
 * message is never committed while an earlier one is still being consumed. Orderly consumption takes messages
 * out in order into a "consuming" map and commits them when the listener succeeds. Confined to the consumer's
 * context.
 */
public final class ProcessQueue {
    private final MessageQueue queue;
    private final TreeMap<Long, ReceivedMessage> held = new TreeMap<>();
    private final TreeMap<Long, ReceivedMessage> consuming = new TreeMap<>();
    private long heldBytes;
    private long maxOffsetEverHeld = -1;
    private boolean isDropped;
    private boolean isLocked;
    private long lastLockTimestampMs;
    private boolean isConsumingOrderly;
    private long lastPullTimestampMs;
    private long lastConsumeTimestampMs;
    private long flowControlCount;

    public ProcessQueue(MessageQueue queue) {
        this(queue, System.currentTimeMillis());
    }

    public ProcessQueue(MessageQueue queue, long nowMs) {
        this.queue = queue;
        this.lastPullTimestampMs = nowMs;
        this.lastConsumeTimestampMs = nowMs;
    }

    public MessageQueue queue() {
        return queue;
    }

    public void put(List<ReceivedMessage> messages) {
        for (ReceivedMessage message : messages) {
            if (held.put(message.queueOffset(), message) == null) {
                heldBytes += message.body().length;
            }
            maxOffsetEverHeld = Math.max(maxOffsetEverHeld, message.queueOffset());
        }
    }

    /**
     * Removes consumed (or sent back) messages.
     *
     * @return the offset to commit now, or -1 when nothing was ever held
     */
    public long remove(List<ReceivedMessage> messages) {
        lastConsumeTimestampMs = System.currentTimeMillis();
        for (ReceivedMessage message : messages) {
            ReceivedMessage removed = held.remove(message.queueOffset());
            if (removed != null) {
                heldBytes -= removed.body().length;
            }
        }
        return commitOffset();
    }

    /** The offset every message before which is consumed. */
    public long commitOffset() {
        if (!held.isEmpty()) {
            return held.firstKey();
        }
        return maxOffsetEverHeld < 0 ? -1 : maxOffsetEverHeld + 1;
    }

    /** Orderly: the next {@code count} messages in offset order, moved aside until committed or given back. */
    public List<ReceivedMessage> takeOrdered(int count) {
        List<ReceivedMessage> taken = new ArrayList<>(count);
        while (taken.size() < count && !held.isEmpty()) {
            Map.Entry<Long, ReceivedMessage> first = held.pollFirstEntry();
            consuming.put(first.getKey(), first.getValue());
            taken.add(first.getValue());
        }
        return taken;
    }

    /** Orderly success: the taken messages are done; returns the offset to commit. */
    public long commitOrdered() {
        lastConsumeTimestampMs = System.currentTimeMillis();
        for (ReceivedMessage message : consuming.values()) {
            heldBytes -= message.body().length;
        }
        consuming.clear();
        return commitOffset();
    }

    /** Orderly retry: the taken messages go back, changed by {@code retried}, to be taken again first. */
    public void giveBackOrdered(UnaryOperator<ReceivedMessage> retried) {
        consuming.forEach((offset, message) -> held.put(offset, retried.apply(message)));
        consuming.clear();
    }

    public int heldCount() {
        return held.size() + consuming.size();
    }

    public long heldBytes() {
        return heldBytes;
    }

    /** The smallest queue offset held (being consumed included), or 0 when nothing is held. */
    public long minHeldOffset() {
        long min = Long.MAX_VALUE;
        if (!held.isEmpty()) {
            min = held.firstKey();
        }
        if (!consuming.isEmpty()) {
            min = Math.min(min, consuming.firstKey());
        }
        return min == Long.MAX_VALUE ? 0 : min;
    }

    /** The largest queue offset held (being consumed included), or 0 when nothing is held. */
    public long maxHeldOffset() {
        long max = -1;
        if (!held.isEmpty()) {
            max = held.lastKey();
        }
        if (!consuming.isEmpty()) {
            max = Math.max(max, consuming.lastKey());
        }
        return Math.max(max, 0);
    }

    public long lastLockTimestampMs() {
        return lastLockTimestampMs;
    }

    public long lastPullTimestampMs() {
        return lastPullTimestampMs;
    }

    public void markPulled(long nowMs) {
        this.lastPullTimestampMs = nowMs;
    }

    /** How often pulling this queue paused because it held too much (the official client's flow-control times). */
    public long flowControlCount() {
        return flowControlCount;
    }

    public void markFlowControlled() {
        flowControlCount++;
    }

    public long lastConsumeTimestampMs() {
        return lastConsumeTimestampMs;
    }

    public boolean isDropped() {
        return isDropped;
    }

    public void drop() {
        isDropped = true;
    }

    public boolean isLocked() {
        return isLocked;
    }

    public void setLocked(boolean locked, long nowMs) {
        this.isLocked = locked;
        if (locked) {
            lastLockTimestampMs = nowMs;
        }
    }

    /** The broker's lock lives 60 s; past 30 s without a renewal it may already be someone else's. */
    public boolean isLockExpired(long nowMs, long maxLockAgeMs) {
        return nowMs - lastLockTimestampMs > maxLockAgeMs;
    }

    public boolean isConsumingOrderly() {
        return isConsumingOrderly;
    }

    public void setConsumingOrderly(boolean consuming) {
        this.isConsumingOrderly = consuming;
    }
}
