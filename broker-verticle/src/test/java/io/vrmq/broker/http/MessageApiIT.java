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
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** /api/v1/messages: by offset msgId, by key and time range, by queue and offset. */
@ExtendWith(VertxExtension.class)
class MessageApiIT {
    private static final String UNIQ_KEY = "7F0000010001000000000000000000AB";
    private static final Map<String, String> KEYED = Map.of("KEYS", "order-42 order-43", "TAGS", "paid",
        "UNIQ_KEY", UNIQ_KEY, "WAIT", "true");

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void messageByOffsetIdShowsItsFieldsAndTextBody(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("M", 1)
                .compose(created -> broker.send("M", 0, KEYED, Buffer.buffer("héllo")))
                .compose(msgId -> broker.get("/api/v1/messages/" + msgId).map(response -> {
                    assertEquals(200, response.statusCode(), response.bodyAsString());
                    JsonObject message = response.bodyAsJsonObject();
                    assertEquals(msgId, message.getString("msgId"));
                    assertEquals("M", message.getString("topic"));
                    assertEquals(0, message.getInteger("queueId"));
                    assertEquals(0, message.getLong("queueOffset"));
                    assertEquals(Long.parseUnsignedLong(msgId.substring(16), 16),
                        message.getLong("commitLogOffset"));
                    assertTrue(message.getLong("storeTimestamp") >= message.getLong("bornTimestamp") - 1_000);
                    assertEquals("paid", message.getString("tags"));
                    assertEquals(new JsonArray().add("order-42").add("order-43"), message.getJsonArray("keys"));
                    assertEquals(UNIQ_KEY, message.getJsonObject("properties").getString("UNIQ_KEY"));
                    assertEquals(0, message.getInteger("reconsumeTimes"));
                    assertEquals("utf-8", message.getString("bodyEncoding"));
                    assertEquals("héllo", message.getString("body"));
                    return null;
                })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void bodyThatIsNotUtf8IsBase64(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        byte[] binary = {(byte) 0xFF, (byte) 0xFE, 0, 1, (byte) 0xC3};
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("M", 1)
                .compose(created -> broker.send("M", 0, Map.of("WAIT", "true"), Buffer.buffer(binary)))
                .compose(msgId -> broker.get("/api/v1/messages/" + msgId)))
            .map(response -> {
                JsonObject message = response.bodyAsJsonObject();
                assertEquals("base64", message.getString("bodyEncoding"));
                assertArrayEquals(binary, Base64.getDecoder().decode(message.getString("body")));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void uniqueKeyWithTopicFindsTheMessageThroughTheIndex(Vertx vertx, VertxTestContext test,
                                                          @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("M", 1)
                .compose(created -> broker.send("M", 0, KEYED, Buffer.buffer("by uniq key")))
                .compose(msgId -> broker.poll(() -> broker.get("/api/v1/messages/" + UNIQ_KEY + "?topic=M"),
                    response -> response.statusCode() == 200)))
            .map(response -> {
                assertEquals("by uniq key", response.bodyAsJsonObject().getString("body"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void messagesByKeyFindTheKeyedMessageInTheTimeRange(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        long beginMs = System.currentTimeMillis() - 1_000;
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("M", 1)
                .compose(created -> broker.send("M", 0, "unkeyed"))
                .compose(sent -> broker.send("M", 0, KEYED, Buffer.buffer("keyed")))
                .compose(sent -> broker.poll(() -> broker.get("/api/v1/messages?topic=M&key=order-43&begin="
                        + beginMs + "&end=" + (System.currentTimeMillis() + 60_000)),
                    response -> !response.bodyAsJsonObject().getJsonArray("messages").isEmpty())))
            .map(response -> {
                JsonArray messages = response.bodyAsJsonObject().getJsonArray("messages");
                assertEquals(1, messages.size());
                assertEquals("keyed", messages.getJsonObject(0).getString("body"));
                assertEquals(1, messages.getJsonObject(0).getLong("queueOffset"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void messageByQueueAndOffsetIsTheOneStoredThere(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("M", 2)
                .compose(created -> broker.send("M", 1, "first"))
                .compose(sent -> broker.send("M", 1, "second"))
                .compose(sent -> broker.awaitDispatched("M", 1, 2))
                .compose(dispatched -> broker.get("/api/v1/messages?topic=M&queueId=1&offset=1")))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                JsonObject message = response.bodyAsJsonObject();
                assertEquals("second", message.getString("body"));
                assertEquals(1, message.getInteger("queueId"));
                assertEquals(1, message.getLong("queueOffset"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void offsetPastTheQueueEndIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("M", 1)
                .compose(created -> broker.get("/api/v1/messages?topic=M&queueId=0&offset=5")))
            .map(response -> HttpTestBroker.assertError(response, 404))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void unknownMessageIdIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/messages/"
                + "7F00000100002A9F00000000000FFFFF"))
            .map(response -> HttpTestBroker.assertError(response, 404))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void messageIdThatIsNotHexIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/messages/not-an-id"))
            .map(response -> HttpTestBroker.assertError(response, 400))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void searchOnAnUnknownTopicIsNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.get("/api/v1/messages?topic=Nope&key=k"))
            .map(response -> HttpTestBroker.assertError(response, 404))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void searchWithoutKeyOrPlaceIsBadRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, broker -> broker.createTopic("M", 1)
                .compose(created -> broker.get("/api/v1/messages?topic=M")))
            .map(response -> HttpTestBroker.assertError(response, 400))
            .onComplete(test.succeedingThenComplete());
    }
}
