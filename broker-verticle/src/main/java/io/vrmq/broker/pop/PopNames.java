package io.vrmq.broker.pop;

import io.vrmq.broker.topic.TopicNames;

/**
 * RocketMQ 5's POP names (KeyBuilder, PopAckConstants, ExtraInfoUtil): the revive log topic and group, the POP retry
 * topics of a group and topic, and the retry marker a receipt handle carries ("0" normal, "1" retry V1 {@code
 * %RETRY%group_topic}, "2" retry V2 {@code %RETRY%group+topic}). Stateless.
 */
public final class PopNames {
    public static final String REVIVE_TOPIC_PREFIX = "rmq_sys_REVIVE_LOG_";
    /** The group under which the revive progress of each revive queue is kept in the consumer offsets. */
    public static final String REVIVE_GROUP = "CID_RMQ_SYS_REVIVE_GROUP";
    /** The revive queue id a receipt handle of an orderly (FIFO) pop carries. */
    public static final int ORDER_REVIVE_QUEUE = 999;
    public static final String NORMAL_MARKER = "0";
    public static final String RETRY_V1_MARKER = "1";
    public static final String RETRY_V2_MARKER = "2";
    private static final char RETRY_V1_SEPARATOR = '_';
    private static final char RETRY_V2_SEPARATOR = '+';

    private PopNames() {
    }

    public static String reviveTopic(String clusterName) {
        return REVIVE_TOPIC_PREFIX + clusterName;
    }

    /** The retry topic revived messages of {@code group} popped from {@code topic} go to. */
    public static String retryTopic(String topic, String group, boolean isV2) {
        return TopicNames.RETRY_GROUP_TOPIC_PREFIX + group + (isV2 ? RETRY_V2_SEPARATOR : RETRY_V1_SEPARATOR)
            + topic;
    }

    /** ExtraInfoUtil.getRetry: the marker of the topic a message was popped from. */
    public static String marker(String topic) {
        if (isRetryV2(topic)) {
            return RETRY_V2_MARKER;
        }
        return TopicNames.isRetryTopic(topic) ? RETRY_V1_MARKER : NORMAL_MARKER;
    }

    /** ExtraInfoUtil.getRealTopic: the topic a handle with {@code marker} was popped from; null for a bad marker. */
    public static String realTopic(String topic, String group, String marker) {
        return switch (marker) {
            case NORMAL_MARKER -> topic;
            case RETRY_V1_MARKER -> retryTopic(topic, group, false);
            case RETRY_V2_MARKER -> retryTopic(topic, group, true);
            default -> null;
        };
    }

    public static boolean isRetryV2(String topic) {
        return TopicNames.isRetryTopic(topic) && topic.indexOf(RETRY_V2_SEPARATOR) >= 0;
    }

    /**
     * The original topic of a POP retry topic of {@code group} ({@code %RETRY%group_topic} or {@code
     * %RETRY%group+topic}), or null when {@code retryTopic} is no POP retry topic of that group (the 4.x
     * {@code %RETRY%group} is none).
     */
    public static String originTopic(String retryTopic, String group) {
        String prefix = TopicNames.RETRY_GROUP_TOPIC_PREFIX + group;
        if (!retryTopic.startsWith(prefix) || retryTopic.length() <= prefix.length() + 1) {
            return null;
        }
        char separator = retryTopic.charAt(prefix.length());
        return separator == RETRY_V1_SEPARATOR || separator == RETRY_V2_SEPARATOR
            ? retryTopic.substring(prefix.length() + 1) : null;
    }
}
