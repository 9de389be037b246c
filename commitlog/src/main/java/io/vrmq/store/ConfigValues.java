package io.vrmq.store;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;

/** Typed reads with defaults over a plain map (numbers may arrive as any Number or as text). */
final class ConfigValues {
    private final Map<String, ?> values;

    ConfigValues(Map<String, ?> values) {
        this.values = values;
    }

    String string(String key, String fallback) {
        Object value = values.get(key);
        return value == null ? fallback : value.toString();
    }

    /** A required path. */
    Path path(String key) {
        Object value = values.get(key);
        if (value == null || value.toString().isBlank()) {
            throw new IllegalArgumentException("invalid store setting " + key + ": " + value + " (required)");
        }
        return value instanceof Path path ? path : Path.of(value.toString());
    }

    int integer(String key, int fallback) {
        long value = longValue(key, fallback);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("invalid store setting " + key + ": " + value + " (not an int)");
        }
        return (int) value;
    }

    long longValue(String key, long fallback) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Number number) {
            return number.longValue();
        }
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid store setting " + key + ": " + value, e);
        }
    }

    /** true or false (a Boolean, or the text "true"/"false" in any case). */
    boolean bool(String key, boolean fallback) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean flag) {
            return flag;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException("invalid store setting " + key + ": " + value + " (want true or false)");
    }

    InetSocketAddress address(String key, String fallback) {
        Object value = values.get(key);
        if (value instanceof InetSocketAddress address) {
            return address;
        }
        String text = value == null ? fallback : value.toString();
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("invalid store setting " + key + ": " + text + " (want host:port)");
        }
        String host = text.substring(0, colon).replace("[", "").replace("]", "");
        try {
            return new InetSocketAddress(host, Integer.parseInt(text.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid store setting " + key + ": " + text, e);
        }
    }
}
