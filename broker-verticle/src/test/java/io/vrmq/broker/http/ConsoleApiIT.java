package io.vrmq.broker.http;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The console's pages and the routes only it uses: identity, queue browsing, resend to a group. */
@ExtendWith(VertxExtension.class)
class ConsoleApiIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void rootServesTheConsoleWithASameOriginContentSecurityPolicy(Vertx vertx, VertxTestContext test,
                                                                  @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/")
                .compose(index -> {
                    assertEquals(200, index.statusCode());
                    assertTrue(index.getHeader("content-type").startsWith("text/html"));
                    assertTrue(index.getHeader("Content-Security-Policy").contains("default-src 'self'"));
                    assertTrue(index.bodyAsString().contains("js/main.js"), index.bodyAsString());
                    return broker.get("/js/main.js");
                })
                .compose(script -> {
                    assertEquals(200, script.statusCode());
                    assertTrue(script.getHeader("content-type").startsWith("text/javascript"));
                    return broker.get("/js/../../etc/passwd");
                }))
            .map(outside -> {
                assertEquals(404, outside.statusCode(), "only the console's own files are served");
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void identityNamesTheBrokerItsRoleAndVersion(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/console/broker"))
            .map(response -> {
                JsonObject identity = HttpTestBroker.requireOk(response);
                assertEquals("broker", identity.getString("role"));
                assertEquals(0, identity.getLong("brokerId"));
                assertEquals("ASYNC_MASTER", identity.getString("brokerRole"));
                assertEquals("V5_5_0", identity.getString("version"));
                assertEquals(false, identity.getBoolean("adminTokenSet"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void tpsHistoryAnswersPointsAndRefusesAStepBelowTheSampleInterval(Vertx vertx, VertxTestContext test,
                                                                      @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/broker/tps-history?stepMs=1000")
                .compose(history -> {
                    JsonObject view = HttpTestBroker.requireOk(history);
                    assertEquals(1000, view.getLong("stepMs"));
                    assertTrue(view.getJsonArray("putTps") != null && view.getJsonArray("getTps") != null);
                    return broker.get("/api/v1/broker/tps-history?stepMs=10");
                }))
            .map(refused -> {
                HttpTestBroker.assertError(refused, 400);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void browsingAQueueWithoutOffsetShowsItsNewestPage(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("B", 1)
                .compose(created -> broker.send("B", 0, "first"))
                .compose(sent -> broker.send("B", 0, "second"))
                .compose(sent -> broker.send("B", 0, "third"))
                .compose(sent -> broker.awaitDispatched("B", 0, 3))
                .compose(dispatched -> broker.get("/api/v1/topics/B/queues/0/messages?maxNum=2")))
            .map(response -> {
                JsonObject page = HttpTestBroker.requireOk(response);
                assertEquals(0, page.getLong("minOffset"));
                assertEquals(3, page.getLong("maxOffset"));
                assertEquals(1, page.getLong("offset"));
                assertEquals(3, page.getLong("nextOffset"));
                JsonArray messages = page.getJsonArray("messages");
                assertEquals(2, messages.size());
                assertEquals("second", messages.getJsonObject(0).getString("body"));
                assertEquals("third", messages.getJsonObject(1).getString("body"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void browsingAQueueOutsideTheTopicIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("B", 2)
                .compose(created -> broker.get("/api/v1/topics/B/queues/2/messages")))
            .map(response -> {
                assertTrue(HttpTestBroker.assertError(response, 400).getString("error").contains("[0, 2)"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resendStoresACopyInTheGroupsRetryTopicNamingTheOriginalTopic(Vertx vertx, VertxTestContext test,
                                                                       @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("R", 1)
                .compose(created -> broker.post("/api/v1/groups", new JsonObject().put("groupName", "RG")))
                .compose(group -> broker.send("R", 0, Map.of("WAIT", "true", "TAGS", "again"),
                    Buffer.buffer("resend me")))
                .compose(msgId -> broker.post("/api/v1/messages/" + msgId + "/resend",
                    new JsonObject().put("group", "RG")))
                .compose(resent -> {
                    JsonObject answer = HttpTestBroker.requireOk(resent);
                    assertEquals("%RETRY%RG", answer.getString("topic"));
                    return broker.awaitDispatched("%RETRY%RG", 0, 1)
                        .compose(dispatched -> broker.get("/api/v1/topics/%25RETRY%25RG/queues/0/messages"));
                }))
            .map(response -> {
                JsonObject copy = HttpTestBroker.requireOk(response).getJsonArray("messages").getJsonObject(0);
                assertEquals("resend me", copy.getString("body"));
                assertEquals("again", copy.getString("tags"));
                assertEquals("R", copy.getJsonObject("properties").getString("RETRY_TOPIC"));
                assertEquals(0, copy.getInteger("reconsumeTimes"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resendToAnUnknownGroupIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("R", 1)
                .compose(created -> broker.send("R", 0, "x"))
                .compose(msgId -> broker.post("/api/v1/messages/" + msgId + "/resend",
                    new JsonObject().put("group", "NoSuchGroup"))))
            .map(response -> {
                HttpTestBroker.assertError(response, 404);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
