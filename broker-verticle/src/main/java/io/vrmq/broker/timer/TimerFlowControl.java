package io.vrmq.broker.timer;

import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Flow control of timer messages, so that very many timers on one second (or in all) cannot grow the broker's
 * memory without bound: the timer service counts what it holds per slot and in all, and a send of a new timer
 * message is refused with SYSTEM_ERROR (RocketMQ's answer, which the producer retries elsewhere) when
 * <ul>
 *   <li>its slot holds {@code timerCongestNumEachSlot} or more: always from twice that, in between with a probability
 *       rising from 0 to 1 (RocketMQ's rule, TimerMessageStore.isReject), or</li>
 *   <li>{@code timerMaxHeldMessages} are held in all (ours; about 16 bytes of heap each).</li>
 * </ul>
 * A recall is refused with SYSTEM_BUSY when {@code timerMaxHeldDeleteKeys} recalled keys are held (ours: each is a
 * message id kept in a set until its second is due, up to timerMaxDelaySec ahead; about 150 bytes of heap each).
 * The counts are of what the timer service has read from the timer queue, which trails the sends by moments: a burst
 * can pass a limit by what is in flight. Thread-safe: the service updates, send and recall paths read.
 *
 * @param congestNumEachSlot RocketMQ's timerCongestNumEachSlot
 * @param maxHeldMessages    held timer messages in all before every new one is refused
 * @param maxHeldDeleteKeys  recalled keys held in all before every new recall is refused
 */
public record TimerFlowControl(long congestNumEachSlot, long maxHeldMessages, long maxHeldDeleteKeys,
                               Map<Long, AtomicLong> slots, AtomicLong held, AtomicLong heldDeleteKeys) {
    public TimerFlowControl {
        if (congestNumEachSlot <= 0) {
            throw new IllegalArgumentException("invalid timerCongestNumEachSlot: " + congestNumEachSlot);
        }
        if (maxHeldMessages <= 0) {
            throw new IllegalArgumentException("invalid timerMaxHeldMessages: " + maxHeldMessages);
        }
        if (maxHeldDeleteKeys <= 0) {
            throw new IllegalArgumentException("invalid timerMaxHeldDeleteKeys: " + maxHeldDeleteKeys);
        }
    }

    public static TimerFlowControl of(long congestNumEachSlot, long maxHeldMessages, long maxHeldDeleteKeys) {
        return new TimerFlowControl(congestNumEachSlot, maxHeldMessages, maxHeldDeleteKeys, new ConcurrentHashMap<>(),
            new AtomicLong(), new AtomicLong());
    }

    public static TimerFlowControl from(JsonObject json) {
        return of(json.getLong("timerCongestNumEachSlot", 500_000L), json.getLong("timerMaxHeldMessages",
            5_000_000L), json.getLong("timerMaxHeldDeleteKeys", 100_000L));
    }

    /** Recall path: refuses a new recall (its delete key would be held until due) when the limit says so. */
    public void requireRecallAdmitted() {
        long keys = heldDeleteKeys.get();
        if (keys >= maxHeldDeleteKeys) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_BUSY, "recall is under flow control: " + keys
                + " recalled timer messages held, timerMaxHeldDeleteKeys is " + maxHeldDeleteKeys);
        }
    }

    /** Send path: refuses a new timer message for {@code slotMs} when the limits say so. */
    public void requireAdmitted(long slotMs) {
        if (held.get() >= maxHeldMessages) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "timer message is under flow control: "
                + held.get() + " timer messages held, timerMaxHeldMessages is " + maxHeldMessages);
        }
        AtomicLong inSlot = slots.get(slotMs);
        long count = inSlot == null ? 0 : inSlot.get();
        if (isCongested(count)) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, String.format("timer message is under flow "
                + "control, max num limit is %d or the current value is greater than %d and less than %d, trigger "
                + "random flow control", congestNumEachSlot * 2, congestNumEachSlot, congestNumEachSlot * 2));
        }
    }

    private boolean isCongested(long count) {
        if (count <= congestNumEachSlot) {
            return false;
        }
        if (count >= congestNumEachSlot * 2) {
            return true;
        }
        double excess = (double) (count - congestNumEachSlot) / congestNumEachSlot;
        return ThreadLocalRandom.current().nextDouble() < excess;
    }

    /** Timer service: one more message held for {@code slotMs}. */
    void added(long slotMs) {
        slots.computeIfAbsent(slotMs, slot -> new AtomicLong()).incrementAndGet();
        held.incrementAndGet();
    }

    /** Timer service: {@code count} messages of {@code slotMs} delivered. */
    void removed(long slotMs, long count) {
        AtomicLong inSlot = slots.get(slotMs);
        if (inSlot != null && inSlot.addAndGet(-count) <= 0) {
            slots.remove(slotMs, inSlot);
        }
        held.addAndGet(-count);
    }

    /** Timer service: the recalled keys it holds now. */
    void deleteKeysHeld(long count) {
        heldDeleteKeys.set(count);
    }

    /** Timer service start: the index is rebuilt from the queue, and counted again. */
    void reset() {
        slots.clear();
        held.set(0);
        heldDeleteKeys.set(0);
    }

    public long heldCount() {
        return held.get();
    }

    public long heldDeleteKeyCount() {
        return heldDeleteKeys.get();
    }
}
