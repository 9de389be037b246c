package io.vrmq.broker.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RequestCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** /api/v1/groups: list, detail, progress, reset-offset, create/update. */
@ExtendWith(VertxExtension.class)
class GroupApiIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void createdGroupIsListedWithItsSettings(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/groups", new JsonObject()
                    .put("groupName", "GA").put("retryMaxTimes", 3).put("consumeBroadcastEnable", false)
                    .put("consumeEnable", false))
                .compose(created -> {
                    assertEquals(201, created.statusCode(), created.bodyAsString());
                    return broker.get("/api/v1/groups");
                }))
            .map(response -> {
                JsonObject group = response.bodyAsJsonObject().getJsonArray("groups").stream()
                    .map(JsonObject.class::cast).filter(line -> line.getString("group").equals("GA")).findFirst()
                    .orElseThrow(() -> new AssertionError(response.bodyAsString()));
                JsonObject config = group.getJsonObject("config");
                assertEquals(3, config.getInteger("retryMaxTimes"));
                assertFalse(config.getBoolean("consumeBroadcastEnable"));
                assertFalse(config.getBoolean("consumeEnable"));
                assertEquals(0, group.getInteger("connections"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void groupWithAnIllegalNameIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/groups",
                new JsonObject().put("groupName", "bad name!")))
            .map(response -> HttpTestBroker.assertError(response, 400))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void groupDetailShowsConnectionsAndSubscriptions(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("T", 1)
                .compose(created -> broker.heartbeat("client-1", "GB", "T"))
                .compose(registered -> broker.get("/api/v1/groups/GB")))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                JsonObject group = response.bodyAsJsonObject();
                assertTrue(group.getBoolean("online"));
                assertEquals("CONSUME_PASSIVELY", group.getString("consumeType"));
                assertEquals("CLUSTERING", group.getString("messageModel"));
                JsonArray connections = group.getJsonArray("connections");
                assertEquals(1, connections.size());
                assertEquals("client-1", connections.getJsonObject(0).getString("clientId"));
                assertEquals("*", group.getJsonObject("subscriptions").getJsonObject("T").getString("subString"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void unknownGroupIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/groups/Nobody")
                .compose(detail -> {
                    HttpTestBroker.assertError(detail, 404);
                    return broker.get("/api/v1/groups/Nobody/progress");
                }))
            .map(progress -> HttpTestBroker.assertError(progress, 404))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void progressReportsLagPerQueueAndInTotal(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> sendThree(broker)
                .compose(sent -> broker.commitOffset("GP", "P", 0, 1))
                .compose(committed -> broker.get("/api/v1/groups/GP/progress")))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                JsonObject progress = response.bodyAsJsonObject();
                assertEquals(2, progress.getLong("totalLag"));
                JsonObject topic = progress.getJsonArray("topics").getJsonObject(0);
                assertEquals("P", topic.getString("topic"));
                assertEquals(2, topic.getLong("lag"));
                JsonObject queue = topic.getJsonArray("queues").getJsonObject(0);
                assertEquals(3, queue.getLong("brokerOffset"));
                assertEquals(1, queue.getLong("consumerOffset"));
                assertEquals(2, queue.getLong("lag"));
                assertTrue(queue.getLong("lastTimestamp") > 0, queue.encode());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resetOffsetToTimeZeroMovesTheGroupBackToTheStart(Vertx vertx, VertxTestContext test,
                                                          @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> sendThree(broker)
                .compose(sent -> broker.post("/api/v1/groups", new JsonObject().put("groupName", "GR")))
                .compose(created -> broker.commitOffset("GR", "P", 0, 3))
                .compose(committed -> broker.post("/api/v1/groups/GR/reset-offset",
                    new JsonObject().put("topic", "P").put("timestamp", 0)))
                .compose(reset -> {
                    assertEquals(200, reset.statusCode(), reset.bodyAsString());
                    JsonObject offset = reset.bodyAsJsonObject().getJsonArray("offsets").getJsonObject(0);
                    assertEquals(0, offset.getInteger("queueId"));
                    assertEquals(0, offset.getLong("offset"));
                    return broker.invoke(RequestCode.QUERY_CONSUMER_OFFSET, Map.of("consumerGroup", "GR",
                        "topic", "P", "queueId", "0"), null);
                }))
            .map(committed -> {
                assertEquals("0", committed.ext("offset"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resetOffsetOnAnUnknownTopicIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/groups",
                    new JsonObject().put("groupName", "GR"))
                .compose(created -> broker.post("/api/v1/groups/GR/reset-offset",
                    new JsonObject().put("topic", "Nope").put("timestamp", 0))))
            .map(response -> HttpTestBroker.assertError(response, 404))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resetOffsetWithoutTimestampIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/groups/GR/reset-offset",
                new JsonObject().put("topic", "P")))
            .map(response -> HttpTestBroker.assertError(response, 400))
            .onComplete(test.succeedingThenComplete());
    }

    /** Topic P with one queue holding three dispatched messages. */
    private static Future<Void> sendThree(HttpTestBroker broker) {
        return broker.createTopic("P", 1)
            .compose(created -> broker.send("P", 0, "m0"))
            .compose(sent -> broker.send("P", 0, "m1"))
            .compose(sent -> broker.send("P", 0, "m2"))
            .compose(sent -> broker.awaitDispatched("P", 0, 3));
    }
}
