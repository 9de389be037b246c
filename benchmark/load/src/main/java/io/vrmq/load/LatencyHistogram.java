package io.vrmq.load;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Request latencies in whole microseconds, one counter per microsecond up to {@link #MAX_TRACKED_MICROS}, above that
 * one overflow counter (reported as the maximum). Exact percentiles without a dependency, at 800 KB.
 * Thread-safe: the remoting client's callback threads record concurrently.
 */
final class LatencyHistogram {

    /** 100 ms: a NameServer route lookup on loopback that takes longer is reported as "at least 100 ms". */
    static final int MAX_TRACKED_MICROS = 100_000;

    private final AtomicLongArray countsByMicros = new AtomicLongArray(MAX_TRACKED_MICROS + 1);

    void record(long latencyNanos) {
        long micros = Math.max(0, latencyNanos / 1_000);
        countsByMicros.incrementAndGet((int) Math.min(micros, MAX_TRACKED_MICROS));
    }

    /** The latency in µs below or at which {@code quantile} (0..1) of the recorded requests fall; 0 when empty. */
    long percentileMicros(double quantile, long recordedCount) {
        if (recordedCount == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(quantile * recordedCount);
        long seen = 0;
        for (int micros = 0; micros <= MAX_TRACKED_MICROS; micros++) {
            seen += countsByMicros.get(micros);
            if (seen >= rank) {
                return micros;
            }
        }
        return MAX_TRACKED_MICROS;
    }
}
