package io.vrmq.remoting.message;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * RocketMQ's message properties string: {@code name \u0001 value \u0002} per pair, with a trailing separator after
 * the last pair. Stateless: any thread.
 */
public final class MessageProperties {
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    public static final char PROPERTY_SEPARATOR = '\u0002';

    private MessageProperties() {
    }

    /** The pairs in order; malformed tails are ignored as the official decoder ignores them. */
    public static Map<String, String> parse(String properties) {
        Map<String, String> map = new LinkedHashMap<>();
        if (properties == null || properties.isEmpty()) {
            return map;
        }
        int start = 0;
        int length = properties.length();
        while (start < length) {
            int end = properties.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = length;
            }
            int separator = properties.indexOf(NAME_VALUE_SEPARATOR, start);
            if (separator > start && separator < end) {
                map.put(properties.substring(start, separator), properties.substring(separator + 1, end));
            }
            start = end + 1;
        }
        return map;
    }

    public static String format(Map<String, String> properties) {
        StringBuilder text = new StringBuilder(properties.size() * 24);
        properties.forEach((name, value) -> {
            if (name != null && value != null) {
                text.append(name).append(NAME_VALUE_SEPARATOR).append(value).append(PROPERTY_SEPARATOR);
            }
        });
        return text.toString();
    }
}
