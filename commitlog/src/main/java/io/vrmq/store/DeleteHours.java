package io.vrmq.store;

import java.util.Set;
import java.util.TreeSet;

/** Parses RocketMQ's {@code deleteWhen}: hours of day "04" or "04;16"; null when malformed. */
final class DeleteHours {
    private DeleteHours() {
    }

    static Set<Integer> parse(String deleteWhen) {
        Set<Integer> hours = new TreeSet<>();
        for (String part : deleteWhen.split(";")) {
            String trimmed = part.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            try {
                int hour = Integer.parseInt(trimmed);
                if (hour < 0 || hour > 23) {
                    return null;
                }
                hours.add(hour);
            } catch (NumberFormatException notAnHour) {
                return null;
            }
        }
        return hours.isEmpty() ? null : Set.copyOf(hours);
    }
}
