package io.vrmq.controller.config;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * Converts settings given as text (an UPDATE_CONTROLLER_CONFIG body, the persisted properties file) to the types of
 * the running settings, which fix each key's type. Stateless: any thread.
 */
public final class SettingValues {
    private SettingValues() {
    }

    /**
     * {@code text} as the type of {@code current} (boolean, int, long or string).
     *
     * @throws IllegalArgumentException naming the key when the text is not of that type
     */
    public static Object convert(String key, Object current, String text) {
        String trimmed = text.trim();
        try {
            if (current instanceof Boolean) {
                if (!trimmed.equalsIgnoreCase("true") && !trimmed.equalsIgnoreCase("false")) {
                    throw new IllegalArgumentException("not a boolean");
                }
                return Boolean.valueOf(trimmed);
            }
            if (current instanceof Integer) {
                return Integer.valueOf(trimmed);
            }
            if (current instanceof Long) {
                return Long.valueOf(trimmed);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid " + key + ": '" + text + "' is not a "
                + current.getClass().getSimpleName().toLowerCase());
        }
        return text;
    }

    /**
     * The settings with the persisted updates applied. Keys that are unknown or black-listed are skipped (a file
     * edited by hand, or written by another version) and named in {@code skipped}.
     */
    public static JsonObject withPersisted(JsonObject settings, Properties persisted, Set<String> blackList,
                                           List<String> skipped) {
        JsonObject merged = settings.copy();
        for (String key : new ArrayList<>(persisted.stringPropertyNames())) {
            if (!settings.containsKey(key) || blackList.contains(key)) {
                skipped.add(key);
                continue;
            }
            merged.put(key, convert(key, settings.getValue(key), persisted.getProperty(key)));
        }
        return merged;
    }
}
