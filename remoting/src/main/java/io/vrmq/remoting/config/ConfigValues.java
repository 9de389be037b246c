package io.vrmq.remoting.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * Checks and converts configuration values against the defaults, which fix each key's type.
 * Stateless: any thread.
 */
final class ConfigValues {
    private ConfigValues() {
    }

    /** The file's values, each checked to be a known key with a value of the default's type. */
    static JsonObject checked(JsonObject defaults, JsonObject given, String source) {
        return checked(defaults, given, source, Set.of());
    }

    /**
     * Like {@link #checked(JsonObject, JsonObject, String)}, but keys in {@code siblingKeys} (those of another role
     * that reads the same file) are skipped instead of refused.
     */
    static JsonObject checked(JsonObject defaults, JsonObject given, String source, Set<String> siblingKeys) {
        JsonObject result = new JsonObject();
        for (String key : given.fieldNames()) {
            if (!defaults.containsKey(key) && siblingKeys.contains(key)) {
                continue;
            }
            if (!defaults.containsKey(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + key + "' (known keys: "
                    + String.join(", ", defaults.fieldNames().stream().sorted().toList()) + ")");
            }
            result.put(key, convert(key, defaults.getValue(key), given.getValue(key), source));
        }
        return result;
    }

    /** The known keys found among environment variables and system properties, converted. */
    static JsonObject overridesOf(JsonObject defaults, JsonObject environment) {
        JsonObject result = new JsonObject();
        for (String key : defaults.fieldNames()) {
            if (environment.containsKey(key)) {
                result.put(key, convert(key, defaults.getValue(key), environment.getValue(key),
                    "environment variable or system property"));
            }
        }
        return result;
    }

    private static Object convert(String key, Object fallback, Object value, String source) {
        if (fallback == null) {
            return value;
        }
        if (value == null) {
            throw new IllegalArgumentException(source + ": key '" + key + "' must be a "
                + fallback.getClass().getSimpleName().toLowerCase() + ", got null");
        }
        try {
            if (fallback instanceof Boolean) {
                return toBoolean(value);
            }
            if (fallback instanceof Integer) {
                return value instanceof Number number ? exactInt(number) : Integer.parseInt(value.toString().trim());
            }
            if (fallback instanceof Long) {
                return value instanceof Number number ? exactLong(number) : Long.parseLong(value.toString().trim());
            }
            if (fallback instanceof Double || fallback instanceof Float) {
                return value instanceof Number number ? number.doubleValue()
                    : Double.parseDouble(value.toString().trim());
            }
            if (fallback instanceof String) {
                return scalarText(value);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": key '" + key + "' must be a "
                + fallback.getClass().getSimpleName().toLowerCase() + ", got '" + value + "'");
        }
        if (!fallback.getClass().isInstance(value)) {
            throw new IllegalArgumentException(source + ": key '" + key + "' must be a "
                + fallback.getClass().getSimpleName() + ", got '" + value + "'");
        }
        return value;
    }

    private static Boolean toBoolean(Object value) {
        if (value instanceof Boolean flag) {
            return flag;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.valueOf(text);
        }
        throw new IllegalArgumentException("not a boolean: " + text);
    }

    /** Numbers and booleans are taken as their text; an object or array is not a string. */
    private static String scalarText(Object value) {
        if (value instanceof JsonObject || value instanceof JsonArray) {
            throw new IllegalArgumentException("not a string: " + value);
        }
        return value.toString();
    }

    private static long exactLong(Number number) {
        long value = number.longValue();
        if (number.doubleValue() != value) {
            throw new IllegalArgumentException("not a long: " + number);
        }
        return value;
    }

    private static int exactInt(Number number) {
        long value = number.longValue();
        if (value != (int) value || number.doubleValue() != value) {
            throw new IllegalArgumentException("not an int: " + number);
        }
        return (int) value;
    }
}
