package io.vrmq.broker.topic;

/** RocketMQ's reserved topic names and the rules for topic names. */
public final class TopicNames {
    public static final String AUTO_CREATE_TOPIC_KEY = "TBW102";
    public static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    public static final String SELF_TEST_TOPIC = "SELF_TEST_TOPIC";
    /** Where a transaction's half message goes once its checks ran out (RocketMQ's name). */
    public static final String TRANS_CHECK_MAX_TIME_TOPIC = "TRANS_CHECK_MAX_TIME_TOPIC";
    public static final String RETRY_GROUP_TOPIC_PREFIX = "%RETRY%";
    public static final String DLQ_GROUP_TOPIC_PREFIX = "%DLQ%";
    public static final int MAX_TOPIC_LENGTH = 127;

    private TopicNames() {
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

    /** Null when the name is fine, else the reason (as RocketMQ's TopicValidator words it). */
    public static String invalidReason(String topic) {
        if (topic == null || topic.isBlank()) {
            return "The specified topic is blank.";
        }
        if (topic.length() > MAX_TOPIC_LENGTH) {
            return "The specified topic is longer than topic max length " + MAX_TOPIC_LENGTH + ".";
        }
        if (!io.vrmq.store.format.TopicNames.hasOnlyNameChars(topic)) {
            return "The specified topic[" + topic + "] contains illegal characters, allowing only "
                + io.vrmq.store.format.TopicNames.NAME_PATTERN;
        }
        return null;
    }

    /** Topics a producer may not send to directly (RocketMQ's TopicValidator list and our system topics). */
    public static boolean isSendForbidden(String topic) {
        return topic.equals(SCHEDULE_TOPIC) || topic.startsWith("rmq_sys_") || topic.startsWith("RMQ_SYS_TRANS")
            || topic.equals(TRANS_CHECK_MAX_TIME_TOPIC);
    }
}
