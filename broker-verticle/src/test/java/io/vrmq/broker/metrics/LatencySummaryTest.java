package io.vrmq.broker.metrics;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The send-latency summary against the Micrometer Timer it replaces: the same Prometheus lines (names, help, type,
 * count, sum, max), quantiles within the buckets' 1/16; its window; its buckets.
 */
class LatencySummaryTest {
    private static final String NAME = "rocketmq_send_latency_seconds";
    private static final double BUCKET_ERROR = 1.0 / 16;

    @Test
    void everyValueFallsInABucketWithinASixteenthOfIt() {
        Random random = new Random(15);
        List<Long> values = new ArrayList<>(List.of(0L, 1L, 15L, 16L, 17L, 31L, 32L, 33L, 1_000L, Long.MAX_VALUE,
            Long.MAX_VALUE - 1, 1L << 62, (1L << 62) - 1));
        for (int round = 0; round < 100_000; round++) {
            values.add((random.nextLong() & Long.MAX_VALUE) >>> random.nextInt(Long.SIZE));
        }
        for (long value : values) {
            int bucket = LatencySummary.bucketOf(value);
            assertTrue(bucket >= 0 && bucket < LatencySummary.BUCKETS, value + " -> " + bucket);
            long upper = LatencySummary.upperBoundOf(bucket);
            long lower = bucket == 0 ? 0 : LatencySummary.upperBoundOf(bucket - 1) + 1;
            assertTrue(lower <= value && value <= upper, value + " not in [" + lower + ", " + upper + "]");
            assertTrue(upper - lower <= Math.max(0, lower / 16), "bucket " + bucket + " too wide");
        }
        assertEquals(Long.MAX_VALUE, LatencySummary.upperBoundOf(LatencySummary.BUCKETS - 1));
    }

    @Test
    void theScrapeHasTheTimersLinesWithQuantilesWithinTheBucketError() {
        PrometheusMeterRegistry ours = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        BrokerMetrics metrics = new BrokerMetrics(ours, () -> 0);
        PrometheusMeterRegistry micrometers = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer timer = Timer.builder("rocketmq.send.latency")
            .description("time from a send request decoded to its response ready (store and, if asked, flush)")
            .publishPercentiles(0.5, 0.99, 0.999).register(micrometers);
        Random random = new Random(310);
        for (int index = 0; index < 50_000; index++) {
            long nanos = 20_000 + (long) (Math.abs(random.nextGaussian()) * 300_000) + (index % 997 == 0
                ? 40_000_000 : 0);
            metrics.requestHandled(RequestCode.SEND_MESSAGE_V2, ResponseCode.SUCCESS, nanos);
            timer.record(nanos, TimeUnit.NANOSECONDS);
        }
        metrics.requestHandled(RequestCode.PULL_MESSAGE, ResponseCode.SUCCESS, 999_000_000_000L);   // not a send

        Map<String, Double> expected = latencyLines(micrometers.scrape());
        Map<String, Double> actual = latencyLines(ours.scrape());

        assertEquals(expected.keySet(), actual.keySet(), ours.scrape());
        assertEquals(expected.get(NAME + "_count"), actual.get(NAME + "_count"));
        assertEquals(expected.get(NAME + "_sum"), actual.get(NAME + "_sum"), 1e-9);
        assertEquals(expected.get(NAME + "_max"), actual.get(NAME + "_max"), 1e-12);
        for (String quantile : new String[] {"0.5", "0.99", "0.999"}) {
            String line = NAME + "{quantile=\"" + quantile + "\"}";
            double micrometer = expected.get(line);
            double summary = actual.get(line);
            assertEquals(micrometer, summary, micrometer * (BUCKET_ERROR + 0.04), line);
        }
        assertTrue(ours.scrape().contains("# HELP " + NAME + " time from a send request decoded to its response"
            + " ready (store and, if asked, flush)\n# TYPE " + NAME + " summary\n"), ours.scrape());
        assertTrue(ours.scrape().contains("# TYPE " + NAME + "_max gauge\n"), ours.scrape());
    }

    /** Quantiles and max cover the last three 40-second epochs; count and sum everything ever recorded. */
    @Test
    void oldValuesLeaveTheQuantilesAndMaxAfterThreeRotationsButStayCounted() {
        LatencySummary summary = new LatencySummary("test_latency_seconds", "help", 0.5, 0.999);
        long start = 1_000_000;
        summary.rotate(start);
        for (int index = 0; index < 1_000; index++) {
            summary.record(8_000_000);   // 8 ms
        }
        summary.rotate(start + LatencySummary.ROTATION_MS);
        for (int index = 0; index < 1_000; index++) {
            summary.record(1_000);   // 1 µs
        }
        assertEquals(0.008, max(summary), 1e-12);
        summary.rotate(start + 2 * LatencySummary.ROTATION_MS);
        summary.rotate(start + 2 * LatencySummary.ROTATION_MS + 999);   // not due
        assertEquals(0.008, max(summary), 1e-12);
        assertEquals(0.008, quantile(summary, 0.999), 0.008 * BUCKET_ERROR);

        summary.rotate(start + 3 * LatencySummary.ROTATION_MS);

        assertEquals(0.000001, max(summary), 1e-12);
        assertEquals(0.000001, quantile(summary, 0.999), 0.000001 * BUCKET_ERROR);
        assertEquals(2_000, count(summary));

        summary.rotate(start + 10 * LatencySummary.ROTATION_MS);   // a long gap: everything expired

        assertEquals(0, max(summary));
        assertEquals(0, quantile(summary, 0.5));
        assertEquals(2_000, count(summary));
        summary.record(5_000);
        assertEquals(0.000005, max(summary), 1e-12);
    }

    @Test
    void recordsFromManyThreadsAreAllCounted() throws InterruptedException {
        LatencySummary summary = new LatencySummary("test_latency_seconds", "help", 0.5);
        List<Thread> threads = new ArrayList<>();
        for (int thread = 0; thread < 4; thread++) {
            threads.add(new Thread(() -> {
                for (int index = 0; index < 25_000; index++) {
                    summary.record(index);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(100_000, count(summary));
        assertEquals(0.000024999, max(summary), 1e-12);
        summary.record(-1);
        assertEquals(100_000, count(summary));
    }

    private static double max(LatencySummary summary) {
        return value(summary, "test_latency_seconds_max");
    }

    private static double count(LatencySummary summary) {
        return value(summary, "test_latency_seconds_count");
    }

    private static double quantile(LatencySummary summary, double quantile) {
        return value(summary, "test_latency_seconds{quantile=\"" + quantile + "\"}");
    }

    private static double value(LatencySummary summary, String line) {
        io.prometheus.metrics.model.registry.PrometheusRegistry registry =
            new io.prometheus.metrics.model.registry.PrometheusRegistry();
        registry.register(summary);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, registry,
            io.micrometer.core.instrument.Clock.SYSTEM);
        Double value = latencyLines(meters.scrape(), "test_latency_seconds").get(line);
        registry.unregister(summary);
        return value == null ? Double.NaN : value;
    }

    private static Map<String, Double> latencyLines(String scrape) {
        return latencyLines(scrape, NAME);
    }

    private static Map<String, Double> latencyLines(String scrape, String name) {
        Map<String, Double> lines = new LinkedHashMap<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name)) {
                int space = line.lastIndexOf(' ');
                lines.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return lines;
    }
}
