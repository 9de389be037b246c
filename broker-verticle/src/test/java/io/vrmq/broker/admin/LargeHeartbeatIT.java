package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vrmq.broker.admin.AdminTestBroker.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HEART_BEAT bodies over heartbeatDecodeOnWorkerBytes (16 KiB by default), decoded on a worker: the registration and
 * the answer are those of a small body, and one connection's heartbeats are applied in the order they were sent.
 */
@ExtendWith(VertxExtension.class)
class LargeHeartbeatIT {
    private static final int LARGE_SUBSCRIPTIONS = 2_000;

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void largeHeartbeatRegistersAsSmallOneDoes(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        String small = body("127.0.0.1@small", "Small", 1, "TagA || TagB", 3);
        String large = body("127.0.0.1@large", "Large", LARGE_SUBSCRIPTIONS, "TagA || TagB", 3);
        assertTrue(large.length() > 16 * 1024, "the large body must be over the default limit");
        AdminTestBroker.with(vertx, storeDir, broker -> heartbeat(broker, small)
                .compose(smallAnswer -> heartbeat(broker, large)
                    .map(largeAnswer -> {
                        assertEquals(ResponseCode.SUCCESS, largeAnswer.code(), largeAnswer.remark());
                        assertEquals(smallAnswer.code(), largeAnswer.code());
                        assertEquals(smallAnswer.remark(), largeAnswer.remark());
                        assertEquals(smallAnswer.ext("IS_SUB_CHANGE"), largeAnswer.ext("IS_SUB_CHANGE"));
                        assertEquals(smallAnswer.ext("IS_SUPPORT_HEART_BEAT_V2"),
                            largeAnswer.ext("IS_SUPPORT_HEART_BEAT_V2"));
                        return null;
                    }))
                .compose(ignored -> connection(broker, "Small"))
                .compose(smallGroup -> connection(broker, "Large").map(largeGroup -> {
                    JsonObject largeTable = largeGroup.getJsonObject("subscriptionTable");
                    assertEquals(LARGE_SUBSCRIPTIONS, largeTable.size());
                    assertEquals(smallGroup.getJsonObject("subscriptionTable").getJsonObject("T0"),
                        largeTable.getJsonObject("T0"));
                    assertEquals(3L, largeTable.getJsonObject("T" + (LARGE_SUBSCRIPTIONS - 1)).getLong("subVersion"));
                    for (String field : new String[] {"consumeType", "messageModel", "consumeFromWhere"}) {
                        assertEquals(smallGroup.getString(field), largeGroup.getString(field), field);
                    }
                    assertEquals("127.0.0.1@large",
                        largeGroup.getJsonArray("connectionSet").getJsonObject(0).getString("clientId"));
                    return null;
                })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void heartbeatsSentBackToBackAreAppliedInOrder(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        // The first needs a worker, the second not: applied out of order, the first's 2,000 topics would win.
        String first = body("127.0.0.1@c1", "CG", LARGE_SUBSCRIPTIONS, "*", 1);
        String second = body("127.0.0.1@c1", "CG", 2, "TagB", 2);
        AdminTestBroker.with(vertx, storeDir, broker -> Future.all(heartbeat(broker, first), heartbeat(broker, second))
                .compose(both -> {
                    for (int i = 0; i < 2; i++) {
                        RemotingCommand answer = both.resultAt(i);
                        assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
                    }
                    return connection(broker, "CG");
                })
                .map(group -> {
                    JsonObject table = group.getJsonObject("subscriptionTable");
                    assertEquals(2, table.size(), "the first heartbeat's topics were applied last");
                    assertEquals("TagB", table.getJsonObject("T1").getString("subString"));
                    assertEquals(2L, table.getJsonObject("T1").getLong("subVersion"));
                    assertEquals(1, group.getJsonArray("connectionSet").size());
                    return null;
                }))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void malformedLargeBodyFailsOnlyItsOwnRequest(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        String good = body("127.0.0.1@c1", "CG", 1, "*", 1);
        String malformed = body("127.0.0.1@c1", "CG", LARGE_SUBSCRIPTIONS, "*", 1).replace("\"subVersion\":1",
            "\"subVersion\":[");
        String smallMalformed = good.replace("\"subVersion\":1", "\"subVersion\":[");
        AdminTestBroker.with(vertx, storeDir, broker -> Future.all(heartbeat(broker, malformed),
                    heartbeat(broker, good), heartbeat(broker, smallMalformed))
                .map(all -> {
                    RemotingCommand largeRefusal = all.resultAt(0);
                    RemotingCommand smallRefusal = all.resultAt(2);
                    assertEquals(ResponseCode.SYSTEM_ERROR, largeRefusal.code());
                    assertEquals(smallRefusal.code(), largeRefusal.code());
                    assertTrue(largeRefusal.remark().startsWith("body is not a valid HeartbeatData: "),
                        largeRefusal.remark());
                    assertTrue(smallRefusal.remark().startsWith("body is not a valid HeartbeatData: "),
                        smallRefusal.remark());
                    RemotingCommand accepted = all.resultAt(1);
                    assertEquals(ResponseCode.SUCCESS, accepted.code(), accepted.remark());
                    return null;
                })
                .compose(ignored -> connection(broker, "CG"))
                .map(group -> {
                    assertEquals(1, group.getJsonObject("subscriptionTable").size());
                    return null;
                }))
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<RemotingCommand> heartbeat(AdminTestBroker broker, String body) {
        return broker.invoke(RequestCode.HEART_BEAT, Map.of(), Buffer.buffer(body));
    }

    private static Future<JsonObject> connection(AdminTestBroker broker, String group) {
        return broker.invoke(RequestCode.GET_CONSUMER_CONNECTION_LIST, Map.of("consumerGroup", group))
            .map(AdminTestBroker::requireSuccess)
            .map(response -> new JsonObject(text(response)));
    }

    /** A push consumer's HEART_BEAT, as the official client writes it, subscribed to topics T0 ... T(count - 1). */
    private static String body(String clientId, String group, int count, String expression, long subVersion) {
        StringBuilder subscriptions = new StringBuilder();
        boolean isAll = expression.equals("*");
        StringBuilder tags = new StringBuilder();
        StringBuilder codes = new StringBuilder();
        if (!isAll) {
            for (String tag : expression.split("\\|\\|")) {
                String trimmed = tag.trim();
                tags.append(tags.isEmpty() ? "" : ",").append('"').append(trimmed).append('"');
                codes.append(codes.isEmpty() ? "" : ",").append(trimmed.hashCode());
            }
        }
        for (int i = 0; i < count; i++) {
            subscriptions.append(i == 0 ? "" : ",").append("{\"classFilterMode\":false,\"codeSet\":[").append(codes)
                .append("],\"expressionType\":\"TAG\",\"subString\":\"").append(expression)
                .append("\",\"subVersion\":").append(subVersion).append(",\"tagsSet\":[").append(tags)
                .append("],\"topic\":\"T").append(i).append("\"}");
        }
        return "{\"clientID\":\"" + clientId + "\",\"consumerDataSet\":[{\"consumeFromWhere\":"
            + "\"CONSUME_FROM_LAST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\",\"groupName\":\"" + group
            + "\",\"messageModel\":\"CLUSTERING\",\"subscriptionDataSet\":[" + subscriptions
            + "],\"unitMode\":false}],\"heartbeatFingerprint\":0,\"producerDataSet\":[{\"groupName\":\"PG\"}],"
            + "\"withoutSub\":false}";
    }
}
