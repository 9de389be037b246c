package io.vrmq.client.producer;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Latency-based broker avoidance, RocketMQ's MQFaultStrategy and LatencyFaultTolerance: after each send the broker's
 * latency decides how long it is avoided; a failed send counts as 10 s of latency (10 s of avoidance).
 * <pre>
 *  latency at least (ms)   0    50   100   550   1800   3000   5000   15000
 *  avoided for (ms)        0    0    0     2000  5000   6000   10000  30000
 * </pre>
 * Confined to the producer's context.
 */
public final class BrokerFaultTable {
    static final long[] LATENCY_STEPS_MS = {50L, 100L, 550L, 1_800L, 3_000L, 5_000L, 15_000L};
    static final long[] AVOID_FOR_MS = {0L, 0L, 2_000L, 5_000L, 6_000L, 10_000L, 30_000L};
    /** What a failed send counts as. */
    static final long FAILURE_LATENCY_MS = 10_000L;

    private final LongSupplier clockMs;
    private final Map<String, Long> avoidedUntilMs = new HashMap<>();

    public BrokerFaultTable(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    public void record(String brokerName, long latencyMs, boolean isFailure) {
        long avoidMs = avoidanceFor(isFailure ? FAILURE_LATENCY_MS : latencyMs);
        if (avoidMs == 0) {
            avoidedUntilMs.remove(brokerName);
        } else {
            avoidedUntilMs.put(brokerName, clockMs.getAsLong() + avoidMs);
        }
    }

    public boolean isAvailable(String brokerName) {
        Long until = avoidedUntilMs.get(brokerName);
        return until == null || clockMs.getAsLong() >= until;
    }

    static long avoidanceFor(long latencyMs) {
        for (int step = LATENCY_STEPS_MS.length - 1; step >= 0; step--) {
            if (latencyMs >= LATENCY_STEPS_MS[step]) {
                return AVOID_FOR_MS[step];
            }
        }
        return 0;
    }
}
