package io.vrmq.broker;

import java.util.ArrayList;
import java.util.List;

/**
 * RocketMQ's delay levels (messageDelayLevel, default "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h
 * 2h"): level N (1-based) delays by the N-th duration. Immutable.
 */
public final class DelayLevels {
    private final long[] delaysMs;

    private DelayLevels(long[] delaysMs) {
        this.delaysMs = delaysMs;
    }

    public static DelayLevels parse(String spec) {
        List<Long> delays = new ArrayList<>();
        for (String token : spec.trim().split("\\s+")) {
            delays.add(parseDuration(token));
        }
        if (delays.isEmpty()) {
            throw new IllegalArgumentException("invalid messageDelayLevel: " + spec);
        }
        return new DelayLevels(delays.stream().mapToLong(Long::longValue).toArray());
    }

    public int maxLevel() {
        return delaysMs.length;
    }

    /** Delay of {@code level} (1-based); levels above the max take the max, as in RocketMQ. */
    public long delayMs(int level) {
        return delaysMs[Math.max(1, Math.min(level, delaysMs.length)) - 1];
    }

    private static long parseDuration(String token) {
        if (token.length() < 2) {
            throw new IllegalArgumentException("invalid delay level " + token);
        }
        char unit = token.charAt(token.length() - 1);
        long amount;
        try {
            amount = Long.parseLong(token.substring(0, token.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid delay level " + token, e);
        }
        return switch (unit) {
            case 's' -> amount * 1_000L;
            case 'm' -> amount * 60_000L;
            case 'h' -> amount * 3_600_000L;
            case 'd' -> amount * 86_400_000L;
            default -> throw new IllegalArgumentException("invalid delay level unit in " + token);
        };
    }
}
