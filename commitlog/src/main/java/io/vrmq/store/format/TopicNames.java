package io.vrmq.store.format;

/**
 * RocketMQ's topic rule: 1..127 characters of [%|a-zA-Z0-9_-]; they also name ConsumeQueue directories. Group names
 * take the same characters, so the broker checks both here. A loop, not {@code String.matches}: the broker checks
 * the topic of every send, and matches compiles its pattern on each call (about 4 % of the broker's CPU samples in
 * a profile of async sends).
 */
public final class TopicNames {
    public static final int MAX_TOPIC_LENGTH = 127;
    /** The characters {@link #hasOnlyNameChars} allows, as RocketMQ's refusals quote them. */
    public static final String NAME_PATTERN = "^[%|a-zA-Z0-9_-]+$";

    private TopicNames() {
    }

    public static boolean isValid(String topic) {
        return topic != null && topic.length() <= MAX_TOPIC_LENGTH && hasOnlyNameChars(topic);
    }

    /** True when the name is not empty and matches {@link #NAME_PATTERN}. */
    public static boolean hasOnlyNameChars(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '%' || c == '|' || c == '_' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
