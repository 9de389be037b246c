package io.vrmq.broker.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-second rates of an ever-growing total (messages put, messages got) over recent windows, from one sample of the
 * total per {@link #sample} call (the broker samples once a second). Keeps {@code capacitySamples} samples in a ring,
 * so the longest window it can answer is about that many sample intervals. Thread-safe (synchronized; one sampler,
 * rare readers).
 */
public final class RateWindow {
    private static final double MS_PER_SECOND = 1_000.0;

    /** One point of {@link #history}: the average per second over the step that ends at {@code timeMs}. */
    public record RatePoint(long timeMs, double perSecond) {
    }

    private final long[] totals;
    private final long[] timesMs;
    private int sampleCount;
    private int newest = -1;

    public RateWindow(int capacitySamples) {
        if (capacitySamples < 2) {
            throw new IllegalArgumentException("capacitySamples must be at least 2: " + capacitySamples);
        }
        this.totals = new long[capacitySamples];
        this.timesMs = new long[capacitySamples];
    }

    public synchronized void sample(long nowMs, long total) {
        newest = (newest + 1) % totals.length;
        totals[newest] = total;
        timesMs[newest] = nowMs;
        sampleCount = Math.min(sampleCount + 1, totals.length);
    }

    /**
     * Average per second between the oldest sample no older than {@code windowMs} (or the oldest kept, if the window
     * reaches further back) and {@code currentTotal} at {@code nowMs}; 0 before the first sample.
     */
    public synchronized double perSecond(long nowMs, long currentTotal, long windowMs) {
        if (sampleCount == 0) {
            return 0;
        }
        int chosen = newest;
        for (int back = 1; back < sampleCount; back++) {
            int index = Math.floorMod(newest - back, totals.length);
            if (nowMs - timesMs[index] > windowMs) {
                break;
            }
            chosen = index;
        }
        long elapsedMs = nowMs - timesMs[chosen];
        return elapsedMs <= 0 ? 0 : (currentTotal - totals[chosen]) * MS_PER_SECOND / elapsedMs;
    }

    /**
     * The rate over the samples kept, oldest first, one point per {@code stepMs} (at least one sample interval): each
     * the average per second since the previous point. What the console's charts show for the last minutes.
     */
    public synchronized List<RatePoint> history(long stepMs) {
        List<RatePoint> points = new ArrayList<>();
        if (sampleCount < 2) {
            return points;
        }
        int previous = Math.floorMod(newest - (sampleCount - 1), totals.length);
        for (int forward = sampleCount - 2; forward >= 0; forward--) {
            int index = Math.floorMod(newest - forward, totals.length);
            long elapsedMs = timesMs[index] - timesMs[previous];
            if (elapsedMs >= stepMs || forward == 0) {
                double perSecond = elapsedMs <= 0 ? 0 : (totals[index] - totals[previous]) * MS_PER_SECOND / elapsedMs;
                points.add(new RatePoint(timesMs[index], perSecond));
                previous = index;
            }
        }
        return points;
    }
}
