package io.vrmq.broker.timer;

import io.vrmq.remoting.message.MessageConst;

import java.util.Map;

/**
 * A recall's delete record in the timer topic (RocketMQ writes the same: a timer message carrying TIMER_DEL_UNIQKEY,
 * stored to the slot of the message it cancels). It is never delivered; when its slot is due, the held messages of
 * that slot whose key it names are dropped instead of delivered.
 * <p>
 * In the timer topic's ConsumeQueue a delete record's tagsCode is its slot + 1. Slots are whole multiples of
 * {@link TimerRouting#TIMER_PRECISION_MS}, so the scan tells delete records from held messages without reading any
 * record but these few. The key is the cancelled message's UNIQ_KEY (RocketMQ's default,
 * appendTopicForTimerDeleteKey=false). Pure; any thread.
 */
public final class TimerDeleteMark {
    static final long TAGS_CODE_OFFSET = 1;

    private TimerDeleteMark() {
    }

    /** True for the properties of a delete record. */
    public static boolean isDeleteRecord(Map<String, String> properties) {
        return properties.containsKey(MessageConst.TIMER_DEL_UNIQKEY);
    }

    /** The ConsumeQueue tagsCode of a delete record for {@code slotMs}. */
    public static long tagsCode(long slotMs) {
        return slotMs + TAGS_CODE_OFFSET;
    }

    /** True when an entry of the timer queue may be a delete record (the scan then reads its record to be sure). */
    static boolean mayBeDeleteRecord(long tagsCode) {
        return Math.floorMod(tagsCode, TimerRouting.TIMER_PRECISION_MS) == TAGS_CODE_OFFSET;
    }

    /** The slot a delete record's tagsCode names. */
    static long slotOf(long tagsCode) {
        return tagsCode - TAGS_CODE_OFFSET;
    }

    /** The key a held message is cancelled by: its UNIQ_KEY (null when it has none, which nothing cancels). */
    static String keyOf(Map<String, String> heldProperties) {
        return heldProperties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
    }
}
