package io.vrmq.broker.timer;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * RocketMQ 5.x's send-time rule for timer messages (HookUtils.checkIfTimerMessage / transformTimerMessage): a message
 * whose properties ask for a deliver time (TIMER_DELIVER_MS absolute, TIMER_DELAY_SEC / TIMER_DELAY_MS relative, or
 * the older absolute {@code __STARTDELIVERTIME}) in the future is stored to {@link #TIMER_TOPIC} queue 0 with
 * TIMER_OUT_MS (the deliver time rounded down to {@link #TIMER_PRECISION_MS}, an exact multiple one step earlier),
 * REAL_TOPIC and REAL_QID; {@link TimerMessageService} moves it to its real topic when due. A deliver time already
 * past means "now": the message stays in its topic. With a delay level also set the TIMER_* properties are dropped.
 * Stateless apart from the clock; any thread.
 */
public final class TimerRouting {
    public static final String TIMER_TOPIC = "rmq_sys_wheel_timer";
    public static final int TIMER_QUEUE_ID = 0;
    /** RocketMQ's timerPrecisionMs: the wheel's slot width. */
    public static final long TIMER_PRECISION_MS = 1_000;
    /** RocketMQ's timerMaxDelaySec default (3 days); not yet a broker setting here. */
    public static final long TIMER_MAX_DELAY_SEC = 3 * 24 * 3_600;

    private final LongSupplier clockMs;
    private final long maxDelayMs;
    private final TimerFlowControl flowControl;

    public TimerRouting(LongSupplier clockMs, long maxDelaySec, TimerFlowControl flowControl) {
        this.clockMs = clockMs;
        this.maxDelayMs = maxDelaySec * 1_000;
        this.flowControl = flowControl;
    }

    /** The system clock and RocketMQ's maximum delay; new timer messages pass {@code flowControl}. */
    public static TimerRouting systemClock(TimerFlowControl flowControl) {
        return new TimerRouting(System::currentTimeMillis, TIMER_MAX_DELAY_SEC, flowControl);
    }

    /** Removes the TIMER_* request properties: a delay level wins over a deliver time, as in RocketMQ. */
    public static void dropTimerProperties(Map<String, String> properties) {
        properties.remove(MessageConst.TIMER_DELIVER_MS);
        properties.remove(MessageConst.TIMER_DELAY_SEC);
        properties.remove(MessageConst.TIMER_DELAY_MS);
    }

    /**
     * True when the message asks for a deliver time and has not been through the timer yet (TIMER_OUT_MS marks a
     * message the timer already handled or delivered, which must never be held twice).
     */
    public static boolean isTimerRequest(String topic, Map<String, String> properties) {
        if (TIMER_TOPIC.equals(topic) || properties.containsKey(MessageConst.TIMER_OUT_MS)) {
            return false;
        }
        return properties.containsKey(MessageConst.TIMER_DELIVER_MS)
            || properties.containsKey(MessageConst.TIMER_DELAY_SEC)
            || properties.containsKey(MessageConst.TIMER_DELAY_MS)
            || properties.containsKey(MessageConst.START_DELIVER_TIME);
    }

    /**
     * For a timer request: rewrites {@code properties} for the timer topic and returns true, or returns false when
     * the deliver time is already past (store to the real topic now). Throws MESSAGE_ILLEGAL for a value that does
     * not parse or a deliver time beyond timerMaxDelaySec, SYSTEM_ERROR when {@link TimerFlowControl} refuses it.
     */
    public boolean holdUntilDue(String topic, int queueId, Map<String, String> properties) {
        long now = clockMs.getAsLong();
        long deliverMs = deliverMs(properties, now);
        if (deliverMs <= now) {
            return false;
        }
        if (deliverMs - now > maxDelayMs) {
            throw illegal();
        }
        long slotMs = deliverMs % TIMER_PRECISION_MS == 0 ? deliverMs - TIMER_PRECISION_MS
            : deliverMs / TIMER_PRECISION_MS * TIMER_PRECISION_MS;
        flowControl.requireAdmitted(slotMs);
        properties.put(MessageConst.TIMER_OUT_MS, Long.toString(slotMs));
        properties.put(MessageConst.REAL_TOPIC, topic);
        properties.put(MessageConst.REAL_QUEUE_ID, Integer.toString(queueId));
        return true;
    }

    private long deliverMs(Map<String, String> properties, long now) {
        try {
            String delaySec = properties.get(MessageConst.TIMER_DELAY_SEC);
            if (delaySec != null) {
                return now + Long.parseLong(delaySec.trim()) * 1_000;
            }
            String delayMs = properties.get(MessageConst.TIMER_DELAY_MS);
            if (delayMs != null) {
                return now + Long.parseLong(delayMs.trim());
            }
            String deliverAt = properties.get(MessageConst.TIMER_DELIVER_MS);
            if (deliverAt == null) {
                deliverAt = properties.get(MessageConst.START_DELIVER_TIME);
            }
            return Long.parseLong(deliverAt.trim());
        } catch (NumberFormatException e) {
            throw illegal();
        }
    }

    private RemotingCommandException illegal() {
        return new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL, String.format("timer message illegal, the "
            + "delay time should not be bigger than the max delay %dms; or if set del msg, the delay time should be "
            + "bigger than the current time", maxDelayMs));
    }

    /** The instant a held message is delivered: the end of its slot, so never before the requested time. */
    public static long dueMs(long timerOutMs) {
        return timerOutMs + TIMER_PRECISION_MS;
    }
}
