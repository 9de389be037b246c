package io.vrmq.store.format;

/** RocketMQ's topic rule: 1..127 characters of [%|a-zA-Z0-9_-]; they also name ConsumeQueue directories. */
public final class TopicNames {
    public static final int MAX_TOPIC_LENGTH = 127;

    private TopicNames() {
    }

    public static boolean isValid(String topic) {
        if (topic == null || topic.isEmpty() || topic.length() > MAX_TOPIC_LENGTH) {
            return false;
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '%' || c == '|' || c == '_' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
