package io.vrmq.broker.metrics;

import io.netty.util.concurrent.FastThreadLocal;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A latency summary for Prometheus, exposed as Micrometer's Timer with {@code publishPercentiles} exposes one (the
 * summary {@code <name>} with its quantiles, {@code _count} and {@code _sum} in seconds, and the gauge
 * {@code <name>_max}), with the same window: the quantiles and the max cover the last 80 to 120 seconds (three
 * 40-second rotations of a two-minute expiry, Micrometer's defaults), count and sum everything.
 *
 * <p>Recorded per thread into plain counters of a log-linear histogram (16 buckets per power of two, so a quantile
 * is within 1/16 of the true value, finer than Micrometer's default one significant digit): one increment of a
 * bucket, count and sum, a max compare, no shared write, no lock. The Timer it replaces recorded each send into three
 * concurrent HdrHistograms behind phasers plus the pause detector's bookkeeping, some 3 % of the broker's CPU on an
 * async send (benchmark/RESULTS.md, session 10 "sendcpu"). The work moves to the scrape: summing the threads'
 * buckets.
 *
 * <p>Thread-safe: {@link #record} from any thread (each writes only its own cell), {@link #rotate} and
 * {@link #collect} from any thread (they synchronize with each other; a scrape sees each cell's counters as of a
 * moment during the scrape, as any lock-free meter does).
 */
final class LatencySummary implements MultiCollector {
    /** Micrometer's distributionStatisticExpiry default (2 minutes) over its buffer length (3). */
    static final long ROTATION_MS = 40_000;
    /** How many rotations the window spans (Micrometer's buffer length). */
    static final int WINDOW_ROTATIONS = 3;
    private static final int SUB_BUCKET_BITS = 4;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** Every non-negative long: 16 exact values, then 16 buckets for each of the powers 2^4 .. 2^62. */
    static final int BUCKETS = (Long.SIZE - SUB_BUCKET_BITS) * SUB_BUCKETS;
    /** Max slots per cell, by epoch: the window's three plus the one being reset. */
    private static final int MAX_SLOTS = 4;
    private static final double NANOS_PER_SECOND = 1e9;

    private final String name;
    private final String help;
    private final double[] quantiles;
    private final CopyOnWriteArrayList<Cell> cells = new CopyOnWriteArrayList<>();
    private final FastThreadLocal<Cell> cell = new FastThreadLocal<>() {
        @Override
        protected Cell initialValue() {
            Cell created = new Cell();
            cells.add(created);
            return created;
        }
    };
    /** Advanced by {@link #rotate}; the writers read it (a plain volatile load) to pick their max slot. */
    private volatile int epoch;
    // Guarded by this: the buckets' totals at the start of each of the last WINDOW_ROTATIONS epochs, oldest first.
    private final List<long[]> epochStarts = new ArrayList<>();
    private long lastRotationMs = -1;

    LatencySummary(String prometheusName, String help, double... quantiles) {
        this.name = prometheusName;
        this.help = help;
        this.quantiles = quantiles.clone();
        epochStarts.add(new long[BUCKETS]);   // the first epoch starts with nothing recorded
    }

    /** One latency, in nanoseconds (a negative one is ignored, as Micrometer's Timer ignores it). */
    void record(long nanos) {
        if (nanos >= 0) {
            cell.get().record(nanos, epoch);
        }
    }

    /**
     * Starts a new 40-second epoch when one is due; the broker calls it once a second (the first call starts the
     * clock). Until the first rotations the window holds everything since the start.
     */
    synchronized void rotate(long nowMs) {
        if (lastRotationMs < 0) {
            lastRotationMs = nowMs;
            return;
        }
        if (nowMs - lastRotationMs < ROTATION_MS) {
            return;
        }
        long elapsedRotations = (nowMs - lastRotationMs) / ROTATION_MS;
        lastRotationMs += elapsedRotations * ROTATION_MS;
        long[] totals = totals();
        for (long skipped = 0; skipped < Math.min(elapsedRotations, WINDOW_ROTATIONS); skipped++) {
            // After a long gap every epoch in the window starts now: what came before has expired.
            epochStarts.add(totals);
            if (epochStarts.size() > WINDOW_ROTATIONS) {
                epochStarts.remove(0);
            }
        }
        epoch += (int) Math.min(elapsedRotations, MAX_SLOTS);
    }

    @Override
    public synchronized MetricSnapshots collect() {
        long[] totals = totals();
        long count = 0;
        double sumNanos = 0;
        for (Cell each : cells) {
            count += each.count.get(0);
            sumNanos += each.count.get(1);
        }
        long[] window = totals.clone();
        if (!epochStarts.isEmpty()) {
            long[] start = epochStarts.get(0);
            for (int bucket = 0; bucket < BUCKETS; bucket++) {
                window[bucket] -= start[bucket];
            }
        }
        long max = windowMax();
        Quantiles.Builder values = Quantiles.builder();
        for (double quantile : quantiles) {
            values.quantile(new Quantile(quantile, Math.min(valueAt(window, quantile), max) / NANOS_PER_SECOND));
        }
        SummarySnapshot summary = SummarySnapshot.builder().name(name).help(help)
            .dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder().count(count)
                .sum(sumNanos / NANOS_PER_SECOND).quantiles(values.build()).build())
            .build();
        GaugeSnapshot maxGauge = GaugeSnapshot.builder().name(name + "_max").help(help)
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(max / NANOS_PER_SECOND).build())
            .build();
        return new MetricSnapshots(summary, maxGauge);
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(name, name + "_max");
    }

    /** The bucket of a non-negative value. */
    static int bucketOf(long value) {
        if (value < SUB_BUCKETS) {
            return (int) value;
        }
        int power = Long.SIZE - 1 - Long.numberOfLeadingZeros(value);
        int shift = power - SUB_BUCKET_BITS;
        return (shift + 1) * SUB_BUCKETS + (int) (value >>> shift & (SUB_BUCKETS - 1));
    }

    /** The largest value in the bucket. */
    static long upperBoundOf(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int shift = bucket / SUB_BUCKETS - 1;
        long lower = (long) (SUB_BUCKETS + bucket % SUB_BUCKETS) << shift;
        return lower + ((1L << shift) - 1);
    }

    /** The upper bound of the bucket holding the value of rank ceil(quantile x count); 0 for an empty window. */
    private static long valueAt(long[] buckets, double quantile) {
        long count = 0;
        for (long each : buckets) {
            count += each;
        }
        if (count <= 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * count));
        long seen = 0;
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            seen += buckets[bucket];
            if (seen >= rank) {
                return upperBoundOf(bucket);
            }
        }
        return upperBoundOf(BUCKETS - 1);
    }

    private long[] totals() {
        long[] totals = new long[BUCKETS];
        for (Cell each : cells) {
            for (int bucket = 0; bucket < BUCKETS; bucket++) {
                totals[bucket] += each.buckets.get(bucket);
            }
        }
        return totals;
    }

    /** The largest value recorded in the window's epochs. */
    private long windowMax() {
        int current = epoch;
        long max = 0;
        for (Cell each : cells) {
            for (int slot = 0; slot < MAX_SLOTS; slot++) {
                int slotEpoch = each.maxEpochs.get(slot);
                if (current - slotEpoch < WINDOW_ROTATIONS && slotEpoch <= current) {
                    max = Math.max(max, each.maxes.get(slot));
                }
            }
        }
        return max;
    }

    /** One thread's counters: written by that thread only (plain reads, release stores), read by a scrape. */
    private static final class Cell {
        final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);
        /** Count, then sum of nanoseconds. */
        final AtomicLongArray count = new AtomicLongArray(2);
        final AtomicLongArray maxes = new AtomicLongArray(MAX_SLOTS);
        final AtomicIntegerArray maxEpochs = new AtomicIntegerArray(MAX_SLOTS);

        Cell() {
            for (int slot = 0; slot < MAX_SLOTS; slot++) {
                maxEpochs.set(slot, Integer.MIN_VALUE);
            }
        }

        void record(long nanos, int epoch) {
            int bucket = bucketOf(nanos);
            buckets.setRelease(bucket, buckets.getPlain(bucket) + 1);
            count.setRelease(0, count.getPlain(0) + 1);
            count.setRelease(1, count.getPlain(1) + nanos);
            int slot = epoch & (MAX_SLOTS - 1);
            if (maxEpochs.getPlain(slot) != epoch) {
                maxes.setRelease(slot, nanos);
                maxEpochs.setRelease(slot, epoch);
            } else if (nanos > maxes.getPlain(slot)) {
                maxes.setRelease(slot, nanos);
            }
        }
    }
}
