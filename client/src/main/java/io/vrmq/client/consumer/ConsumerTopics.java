package io.vrmq.client.consumer;

/** RocketMQ's per-group topic names. */
public final class ConsumerTopics {
    public static final String RETRY_GROUP_TOPIC_PREFIX = "%RETRY%";
    public static final String DLQ_GROUP_TOPIC_PREFIX = "%DLQ%";

    private ConsumerTopics() {
    }

    public static String retryTopic(String group) {
        return RETRY_GROUP_TOPIC_PREFIX + group;
    }

    public static String dlqTopic(String group) {
        return DLQ_GROUP_TOPIC_PREFIX + group;
    }

    public static boolean isRetryTopic(String topic) {
        return topic.startsWith(RETRY_GROUP_TOPIC_PREFIX);
    }
}
