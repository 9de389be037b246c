package io.vrmq.broker.store;

import io.vrmq.broker.DelayLevels;
import io.vrmq.broker.timer.TimerDeleteMark;
import io.vrmq.broker.timer.TimerRouting;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.dispatch.TagsCodeFunction;

import java.util.Map;

/**
 * The broker's tagsCode rule: the tag's hash, except in SCHEDULE_TOPIC_XXXX where it is the deliver time (store
 * time + the level's delay), so the schedule service reads due messages from the ConsumeQueue alone, as RocketMQ does,
 * and in the timer topic where it is TIMER_OUT_MS (the timer slot; + 1 on a recall's delete record), so the timer
 * service rebuilds its index from the ConsumeQueue without reading records. Called on the store's dispatcher thread;
 * pure, never throws.
 */
public final class ScheduleTagsCode implements TagsCodeFunction {
    private final DelayLevels delayLevels;
    private final TagsCodeFunction tagHash = TagsCodeFunction.tagHash();

    public ScheduleTagsCode(DelayLevels delayLevels) {
        this.delayLevels = delayLevels;
    }

    @Override
    public long tagsCode(String topic, String properties, long storeTimestamp) {
        if (TimerRouting.TIMER_TOPIC.equals(topic)) {
            return timerSlot(properties, storeTimestamp);
        }
        if (!TopicNames.SCHEDULE_TOPIC.equals(topic)) {
            return tagHash.tagsCode(topic, properties, storeTimestamp);
        }
        String level = MessageProperties.parse(properties).get(MessageConst.DELAY_TIME_LEVEL);
        int delayLevel = level == null ? 1 : Integer.parseInt(level.trim());
        return storeTimestamp + delayLevels.delayMs(delayLevel);
    }

    /**
     * TIMER_OUT_MS, + 1 for a recall's delete record ({@link TimerDeleteMark}); a record without a readable one
     * (never written by us) is due at once.
     */
    private static long timerSlot(String properties, long storeTimestamp) {
        Map<String, String> parsed = MessageProperties.parse(properties);
        String timerOut = parsed.get(MessageConst.TIMER_OUT_MS);
        try {
            if (timerOut == null) {
                return storeTimestamp;
            }
            long slotMs = Long.parseLong(timerOut.trim());
            return TimerDeleteMark.isDeleteRecord(parsed) ? TimerDeleteMark.tagsCode(slotMs) : slotMs;
        } catch (NumberFormatException e) {
            return storeTimestamp;
        }
    }
}
