package io.vrmq.store.format;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the few properties the store needs (TAGS, KEYS, UNIQ_KEY) from RocketMQ's encoding
 * {@code name\u0001value\u0002...}, without building a map.
 */
public final class MessageProperties {
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    public static final char PROPERTY_SEPARATOR = '\u0002';
    public static final String TAGS = "TAGS";
    public static final String KEYS = "KEYS";
    public static final String UNIQ_KEY = "UNIQ_KEY";
    /** KEYS holds several business keys separated by a space. */
    public static final String KEY_SEPARATOR = " ";

    private MessageProperties() {
    }

    /** The value of {@code name}, or null when absent. */
    public static String get(String properties, String name) {
        int from = 0;
        int length = properties.length();
        while (from < length) {
            int separator = properties.indexOf(NAME_VALUE_SEPARATOR, from);
            if (separator < 0) {
                return null;
            }
            int end = properties.indexOf(PROPERTY_SEPARATOR, separator + 1);
            if (end < 0) {
                end = length;
            }
            if (separator - from == name.length() && properties.startsWith(name, from)) {
                return properties.substring(separator + 1, end);
            }
            from = end + 1;
        }
        return null;
    }

    /** The business keys of KEYS, empty when none. */
    public static List<String> keys(String properties) {
        String keys = get(properties, KEYS);
        List<String> out = new ArrayList<>();
        if (keys != null) {
            for (String key : keys.split(KEY_SEPARATOR)) {
                if (!key.isEmpty()) {
                    out.add(key);
                }
            }
        }
        return out;
    }

    /** RocketMQ's tagsCode for a plain topic: the tag's Java String hash, 0 without a tag. */
    public static long tagsCode(String properties) {
        String tags = get(properties, TAGS);
        return tags == null || tags.isEmpty() ? 0 : tags.hashCode();
    }
}
