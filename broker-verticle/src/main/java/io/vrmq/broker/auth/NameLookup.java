package io.vrmq.broker.auth;

import java.util.function.Function;

/** Case-insensitive lookup of RocketMQ's enum display names ("Super", "enable", "Allow"...). */
final class NameLookup {
    private NameLookup() {
    }

    static <T> T find(T[] values, String name, Function<T, String> displayName) {
        if (name == null) {
            return null;
        }
        for (T value : values) {
            if (displayName.apply(value).equalsIgnoreCase(name)) {
                return value;
            }
        }
        return null;
    }
}
