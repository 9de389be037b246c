package io.vrmq.store.dispatch;

import io.vrmq.store.format.MessageProperties;

/**
 * Computes a record's ConsumeQueue tagsCode from what is stored, so a rebuilt queue equals the original. The
 * default is RocketMQ's plain rule (TAGS hash); the broker passes its own to give SCHEDULE_TOPIC_XXXX entries their
 * deliver time. Called on the dispatcher thread.
 */
@FunctionalInterface
public interface TagsCodeFunction {
    long tagsCode(String topic, String properties, long storeTimestamp);

    static TagsCodeFunction tagHash() {
        return (topic, properties, storeTimestamp) -> MessageProperties.tagsCode(properties);
    }
}
