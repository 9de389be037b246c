package io.vrmq.broker.http;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** /api/v1/broker/runtime and /api/v1/broker/config. */
@ExtendWith(VertxExtension.class)
class BrokerApiIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void runtimeCountsPutMessagesAndShowsStoreOffsets(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("R", 1)
                .compose(created -> broker.send("R", 0, "one"))
                .compose(sent -> broker.send("R", 0, "two"))
                .compose(sent -> broker.get("/api/v1/broker/runtime")))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                JsonObject runtime = response.bodyAsJsonObject();
                assertEquals(2, runtime.getLong("putMessagesTotal"));
                assertEquals(0, runtime.getLong("getMessagesTotal"));
                assertTrue(runtime.getJsonObject("putTps").containsKey("10s"), runtime.encode());
                assertEquals(1, runtime.getInteger("connections"));
                assertEquals(0, runtime.getInteger("heldPulls"));
                JsonObject store = runtime.getJsonObject("store");
                assertEquals(0, store.getLong("commitLogMinOffset"));
                assertTrue(store.getLong("commitLogMaxOffset") > 0, store.encode());
                assertEquals(4 * 1024 * 1024, store.getLong("commitLogSizeBytes"));
                double diskRatio = store.getDouble("diskUsedRatio");
                assertTrue(diskRatio >= 0 && diskRatio <= 1, store.encode());
                assertTrue(store.containsKey("flushMaxLatencyMicros"), store.encode());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void configShowsEffectiveSettingsButNeverTheToken(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, "s3cret-token", broker -> broker.get("/api/v1/broker/config"))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                JsonObject config = response.bodyAsJsonObject();
                assertEquals("broker-a", config.getString("brokerName"));
                assertEquals(4 * 1024 * 1024, config.getInteger("mappedFileSizeCommitLog"));
                assertEquals(storeDir.toString(), config.getString("storePathRootDir"));
                assertTrue(config.getBoolean("adminTokenSet"));
                assertFalse(config.containsKey("adminToken"));
                assertFalse(response.bodyAsString().contains("s3cret-token"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
