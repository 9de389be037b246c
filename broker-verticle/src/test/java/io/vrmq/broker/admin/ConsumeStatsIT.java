package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
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

import static io.vrmq.broker.admin.AdminTestBroker.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET_CONSUME_STATS (208), QUERY_TOPIC_CONSUME_BY_WHO (300), QUERY_TOPICS_BY_CONSUMER (343). */
@ExtendWith(VertxExtension.class)
class ConsumeStatsIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void consumeStatsAreWrittenInFastjsonObjectKeyedForm(Vertx vertx, VertxTestContext test,
                                                         @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> threeMessagesTwoConsumed(broker)
                .compose(ready -> broker.invoke(RequestCode.GET_CONSUME_STATS, Map.of("consumerGroup", "CG",
                    "topic", "Progress"))))
            .map(response -> {
                String body = text(response);
                String lastTimestamp = body.replaceAll(".*\"consumerOffset\":2,\"lastTimestamp\":(\\d+),.*", "$1");
                assertTrue(Long.parseLong(lastTimestamp) > 0, body);
                assertEquals("{\"consumeTps\":0.0,\"offsetTable\":{"
                    + "{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"Progress\"}:"
                    + "{\"brokerOffset\":3,\"consumerOffset\":2,\"lastTimestamp\":" + lastTimestamp
                    + ",\"pullOffset\":2},"
                    + "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"Progress\"}:"
                    + "{\"brokerOffset\":0,\"consumerOffset\":0,\"lastTimestamp\":0,\"pullOffset\":0}}}", body);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void consumeStatsWithoutTopicCoverEveryTopicTheGroupCommittedOn(Vertx vertx, VertxTestContext test,
                                                                    @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> threeMessagesTwoConsumed(broker)
                .compose(ready -> broker.invoke(RequestCode.GET_CONSUME_STATS, Map.of("consumerGroup", "CG"))))
            .map(response -> {
                assertTrue(text(response).contains("\"queueId\":1,\"topic\":\"Progress\"}:"), text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void consumeStatsOfGroupWithNothingAreAnEmptyTable(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.GET_CONSUME_STATS, Map.of("consumerGroup", "Idle")))
            .map(response -> {
                assertEquals("{\"consumeTps\":0.0,\"offsetTable\":{}}", text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void topicConsumedByWhoNamesSubscribersAndGroupsWithOffsets(Vertx vertx, VertxTestContext test,
                                                               @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> threeMessagesTwoConsumed(broker)
                .compose(ready -> broker.heartbeat("127.0.0.1@c1", "Live", "Progress"))
                .compose(beat -> broker.invoke(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, Map.of("topic", "Progress"))))
            .map(response -> {
                assertEquals("{\"groupList\":[\"CG\",\"Live\"]}", text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void topicsByConsumerNameTheTopicsAndTheBroker(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> threeMessagesTwoConsumed(broker)
                .compose(ready -> broker.invoke(RequestCode.QUERY_TOPICS_BY_CONSUMER, Map.of("group", "CG")))
                .map(response -> {
                    JsonObject body = new JsonObject(text(response));
                    assertEquals("[\"Progress\"]", body.getJsonArray("topicList").encode());
                    assertEquals(broker.address(), body.getString("brokerAddr"));
                    return null;
                }))
            .onComplete(test.succeedingThenComplete());
    }

    /** Topic "Progress" with 2 queues, 3 messages in queue 0, group CG committed offset 2 there. */
    static Future<Void> threeMessagesTwoConsumed(AdminTestBroker broker) {
        return broker.createTopic("Progress", 2)
            .compose(created -> broker.send("Progress", 0, Map.of(), "m0"))
            .compose(sent -> broker.send("Progress", 0, Map.of(), "m1"))
            .compose(sent -> broker.send("Progress", 0, Map.of(), "m2"))
            .compose(sent -> broker.awaitDispatched("Progress", 0, 3))
            .compose(dispatched -> broker.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, Map.of("consumerGroup", "CG",
                "topic", "Progress", "queueId", "0", "commitOffset", "2")))
            .map(AdminTestBroker::requireSuccess)
            .mapEmpty();
    }
}
