package io.vrmq.broker.http;

import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET /metrics: Prometheus text with the broker's traffic, lag, store and JVM meters. */
@ExtendWith(VertxExtension.class)
class MetricsIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void sentMessagesAreCountedPerTopic(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Metered", 1)
                .compose(created -> broker.send("Metered", 0, "12345"))
                .compose(sent -> broker.send("Metered", 0, "678"))
                .compose(sent -> broker.get("/metrics")))
            .map(response -> {
                assertEquals(200, response.statusCode());
                assertTrue(response.getHeader("content-type").startsWith("text/plain"),
                    response.getHeader("content-type"));
                String text = response.bodyAsString();
                assertTrue(text.contains("rocketmq_producer_messages_total{topic=\"Metered\"} 2.0"), text);
                assertTrue(text.contains("rocketmq_producer_bytes_total{topic=\"Metered\"} 8.0"), text);
                assertTrue(text.contains("rocketmq_send_latency_seconds_count 2"), text);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void pulledMessagesAreCountedPerTopicAndGroup(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Pulled", 1)
                .compose(created -> broker.send("Pulled", 0, "a"))
                .compose(sent -> broker.send("Pulled", 0, "b"))
                .compose(sent -> broker.awaitDispatched("Pulled", 0, 2))
                .compose(dispatched -> broker.pull("GC", "Pulled", 0, 0))
                .compose(pulled -> {
                    assertEquals(ResponseCode.SUCCESS, pulled.code(), pulled.remark());
                    return broker.get("/metrics");
                }))
            .map(response -> {
                String text = response.bodyAsString();
                assertTrue(text.contains("rocketmq_consumer_messages_total{group=\"GC\",topic=\"Pulled\"} 2.0"),
                    text);
                assertTrue(text.contains("rocketmq_consumer_bytes_total{group=\"GC\",topic=\"Pulled\"}"), text);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void consumerLagIsReportedPerGroupAndTopic(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Lagging", 1)
                .compose(created -> broker.send("Lagging", 0, "a"))
                .compose(sent -> broker.send("Lagging", 0, "b"))
                .compose(sent -> broker.send("Lagging", 0, "c"))
                .compose(sent -> broker.awaitDispatched("Lagging", 0, 3))
                .compose(dispatched -> broker.commitOffset("GL", "Lagging", 0, 1))
                .compose(committed -> broker.get("/metrics")))
            .map(response -> {
                String text = response.bodyAsString();
                assertTrue(text.contains("rocketmq_consumer_lag_messages{group=\"GL\",topic=\"Lagging\"} 2.0"),
                    text);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void storeConnectionAndJvmMetersAreExported(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("S", 1)
                .compose(created -> broker.send("S", 0, "x"))
                .compose(sent -> broker.get("/metrics")))
            .map(response -> {
                String text = response.bodyAsString();
                assertTrue(text.contains("rocketmq_commitlog_size_bytes " + 4 * 1024 * 1024 + ".0"), text);
                assertTrue(text.contains("rocketmq_store_disk_ratio "), text);
                assertTrue(text.contains("rocketmq_flush_latency_max_seconds "), text);
                assertTrue(text.contains("rocketmq_connections 1.0"), text);
                assertTrue(text.contains("rocketmq_pull_held 0.0"), text);
                assertTrue(text.contains("jvm_memory_used_bytes"), text);
                assertTrue(text.contains("jvm_threads_live_threads"), text);
                assertTrue(text.contains("system_cpu_count"), text);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
