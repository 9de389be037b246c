package io.vrmq.broker.store;

import io.vrmq.broker.DelayLevels;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.dispatch.TagsCodeFunction;

/**
 * The broker's tagsCode rule: the tag's hash, except in SCHEDULE_TOPIC_XXXX where it is the deliver time (store
 * time + the level's delay), so the schedule service reads due messages from the ConsumeQueue alone, as RocketMQ does.
 * Called on the store's dispatcher thread; pure.
 */
public final class ScheduleTagsCode implements TagsCodeFunction {
    private final DelayLevels delayLevels;
    private final TagsCodeFunction tagHash = TagsCodeFunction.tagHash();

    public ScheduleTagsCode(DelayLevels delayLevels) {
        this.delayLevels = delayLevels;
    }

    @Override
    public long tagsCode(String topic, String properties, long storeTimestamp) {
        if (!TopicNames.SCHEDULE_TOPIC.equals(topic)) {
            return tagHash.tagsCode(topic, properties, storeTimestamp);
        }
        String level = MessageProperties.parse(properties).get(MessageConst.DELAY_TIME_LEVEL);
        int delayLevel = level == null ? 1 : Integer.parseInt(level.trim());
        return storeTimestamp + delayLevels.delayMs(delayLevel);
    }
}
