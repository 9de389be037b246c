package io.vrmq.broker.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
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

/** /health and /api/v1/topics: list, create/update, delete, status. */
@ExtendWith(VertxExtension.class)
class TopicApiIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void healthAnswersUpWithTheBrokerName(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/health"))
            .map(response -> {
                assertEquals(200, response.statusCode());
                assertEquals("application/json", response.getHeader("content-type"));
                assertEquals("UP", response.bodyAsJsonObject().getString("status"));
                assertEquals("broker-a", response.bodyAsJsonObject().getString("brokerName"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void createdTopicIsListedWithItsQueuesAndPerm(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/topics", new JsonObject()
                    .put("topic", "Orders").put("readQueueNums", 3).put("writeQueueNums", 2).put("perm", 4))
                .compose(created -> {
                    assertEquals(201, created.statusCode(), created.bodyAsString());
                    return broker.get("/api/v1/topics");
                }))
            .map(response -> {
                JsonObject topic = find(response.bodyAsJsonObject().getJsonArray("topics"), "Orders");
                assertEquals(3, topic.getInteger("readQueueNums"));
                assertEquals(2, topic.getInteger("writeQueueNums"));
                assertEquals(4, topic.getInteger("perm"));
                assertEquals("R--", topic.getString("permText"));
                assertFalse(topic.getBoolean("system"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void updatingAnExistingTopicAnswers200WithTheNewQueueCounts(Vertx vertx, VertxTestContext test,
                                                                 @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Orders", 2)
                .compose(created -> broker.post("/api/v1/topics", new JsonObject().put("topic", "Orders")
                    .put("readQueueNums", 8).put("writeQueueNums", 8))))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                assertEquals(8, response.bodyAsJsonObject().getInteger("readQueueNums"));
                assertEquals(6, response.bodyAsJsonObject().getInteger("perm"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void topicWithoutNameIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/topics",
                new JsonObject().put("readQueueNums", 4)))
            .map(response -> HttpTestBroker.assertError(response, 400))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void queueCountOutOfRangeIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/topics",
                new JsonObject().put("topic", "T").put("readQueueNums", 0)))
            .map(response -> HttpTestBroker.assertError(response, 400))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void bodyThatIsNotJsonIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> vertx.createHttpClient()
                .request(HttpMethod.POST, broker.adminPort(), "127.0.0.1", "/api/v1/topics")
                .compose(request -> request.send("{not json"))
                .compose(response -> response.body().map(body -> {
                    assertEquals(400, response.statusCode());
                    assertEquals(400, new JsonObject(body).getInteger("status"));
                    return null;
                })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void systemTopicCannotBeCreated(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.post("/api/v1/topics",
                new JsonObject().put("topic", "SCHEDULE_TOPIC_XXXX")))
            .map(response -> {
                JsonObject error = HttpTestBroker.assertError(response, 400);
                assertTrue(error.getString("error").contains("conflict with system topic"), error.encode());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void deletedTopicIsGoneFromTheList(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Gone", 1)
                .compose(created -> broker.delete("/api/v1/topics/Gone"))
                .compose(deleted -> {
                    assertEquals(200, deleted.statusCode(), deleted.bodyAsString());
                    return broker.get("/api/v1/topics");
                }))
            .map(response -> {
                JsonArray topics = response.bodyAsJsonObject().getJsonArray("topics");
                assertTrue(topics.stream().map(JsonObject.class::cast)
                    .noneMatch(topic -> topic.getString("topic").equals("Gone")), topics.encode());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void deletingAnUnknownTopicIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.delete("/api/v1/topics/Nope"))
            .map(response -> HttpTestBroker.assertError(response, 404))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void topicStatusShowsOffsetsAndLastUpdatePerQueue(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        long beforeSendMs = System.currentTimeMillis();
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("S", 2)
                .compose(created -> broker.send("S", 1, "one"))
                .compose(sent -> broker.send("S", 1, "two"))
                .compose(sent -> broker.awaitDispatched("S", 1, 2))
                .compose(dispatched -> broker.get("/api/v1/topics/S/status")))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                JsonArray queues = response.bodyAsJsonObject().getJsonArray("queues");
                assertEquals(2, queues.size());
                assertEquals(0, queues.getJsonObject(0).getLong("maxOffset"));
                assertEquals(0, queues.getJsonObject(0).getLong("lastUpdateTimestamp"));
                JsonObject second = queues.getJsonObject(1);
                assertEquals(1, second.getInteger("queueId"));
                assertEquals(0, second.getLong("minOffset"));
                assertEquals(2, second.getLong("maxOffset"));
                assertTrue(second.getLong("lastUpdateTimestamp") >= beforeSendMs, second.encode());
                assertEquals(2, response.bodyAsJsonObject().getLong("totalMessages"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void statusOfAnUnknownTopicIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/topics/Nope/status"))
            .map(response -> HttpTestBroker.assertError(response, 404))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void unknownPathIsNotFoundJson(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/nothing-here"))
            .map(response -> HttpTestBroker.assertError(response, 404))
            .onComplete(test.succeedingThenComplete());
    }

    private static JsonObject find(JsonArray topics, String name) {
        return topics.stream().map(JsonObject.class::cast).filter(topic -> topic.getString("topic").equals(name))
            .findFirst().orElseThrow(() -> new AssertionError(name + " not in " + topics.encode()));
    }
}
