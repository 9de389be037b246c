package io.vrmq.broker.admin;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Topic administration codes 17, 21, 215, 351, 202 and 305 against a real broker. */
@ExtendWith(VertxExtension.class)
class TopicAdminIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void createdTopicIsListedByGetAllTopicConfigWithItsVersion(Vertx vertx, VertxTestContext test,
                                                               @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("OrderTopic", 3)
                .compose(created -> broker.invoke(RequestCode.GET_ALL_TOPIC_CONFIG, Map.of())))
            .map(response -> {
                JsonObject body = new JsonObject(text(response));
                JsonObject topic = body.getJsonObject("topicConfigTable").getJsonObject("OrderTopic");
                assertEquals(3, topic.getInteger("readQueueNums"));
                assertEquals(3, topic.getInteger("writeQueueNums"));
                assertEquals(6, topic.getInteger("perm"));
                assertTrue(body.getJsonObject("dataVersion").getLong("counter") > 0);
                assertTrue(body.containsKey("mappingDataVersion"));
                assertEquals(Integer.toString(body.getJsonObject("topicConfigTable").size()),
                    response.ext("totalTopicNum"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void createTopicKeepsAttributesGivenWithPlusSigns(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.UPDATE_AND_CREATE_TOPIC, Map.of("topic", "Typed",
                    "defaultTopic", "TBW102", "readQueueNums", "2", "writeQueueNums", "2", "perm", "6",
                    "topicFilterType", "SINGLE_TAG", "order", "false", "attributes", "+message.type=FIFO"))
                .map(AdminTestBroker::requireSuccess)
                .compose(created -> broker.invoke(RequestCode.GET_TOPIC_CONFIG, Map.of("topic", "Typed"))))
            .map(response -> {
                JsonObject body = new JsonObject(text(response));
                assertEquals("FIFO", body.getJsonObject("attributes").getString("message.type"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void systemTopicCannotBeCreatedByAdmin(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.UPDATE_AND_CREATE_TOPIC, Map.of("topic",
                "SCHEDULE_TOPIC_XXXX", "defaultTopic", "TBW102", "readQueueNums", "1", "writeQueueNums", "1",
                "perm", "6", "topicFilterType", "SINGLE_TAG", "order", "false")))
            .map(response -> {
                assertEquals(ResponseCode.INVALID_PARAMETER, response.code());
                assertEquals("The topic[SCHEDULE_TOPIC_XXXX] is conflict with system topic.", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void getTopicConfigAnswersTheConfigAsJson(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Plain", 2)
                .compose(created -> broker.invoke(RequestCode.GET_TOPIC_CONFIG, Map.of("topic", "Plain"))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                assertEquals("{\"attributes\":{},\"order\":false,\"perm\":6,\"readQueueNums\":2,"
                    + "\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"Plain\",\"topicSysFlag\":0,"
                    + "\"writeQueueNums\":2}", text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void getTopicConfigOfUnknownTopicIsTopicNotExist(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.GET_TOPIC_CONFIG, Map.of("topic", "Nope")))
            .map(response -> {
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, response.code());
                assertEquals("No topic in this broker. topic: Nope", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void deletedTopicLosesItsConfigAndItsGroupOffsets(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Doomed", 1)
                .compose(created -> broker.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, Map.of("consumerGroup",
                    "CG", "topic", "Doomed", "queueId", "0", "commitOffset", "7")))
                .compose(committed -> broker.invoke(RequestCode.DELETE_TOPIC_IN_BROKER, Map.of("topic", "Doomed")))
                .map(AdminTestBroker::requireSuccess)
                .compose(deleted -> broker.invoke(RequestCode.GET_TOPIC_CONFIG, Map.of("topic", "Doomed")))
                .map(config -> {
                    assertEquals(ResponseCode.TOPIC_NOT_EXIST, config.code());
                    return null;
                })
                .compose(checked -> broker.invoke(RequestCode.QUERY_TOPICS_BY_CONSUMER,
                    Map.of("group", "CG"))))
            .map(response -> {
                assertEquals(0, new JsonObject(text(response)).getJsonArray("topicList").size());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void topicStatsListEveryQueueInFastjsonObjectKeyedForm(Vertx vertx, VertxTestContext test,
                                                           @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Stats", 2)
                .compose(created -> broker.send("Stats", 1, Map.of(), "hello"))
                .compose(sent -> broker.awaitDispatched("Stats", 1, 1))
                .compose(dispatched -> broker.invoke(RequestCode.GET_TOPIC_STATS_INFO, Map.of("topic", "Stats"))))
            .map(response -> {
                String body = text(response);
                String lastUpdate = body.replaceAll(".*\"queueId\":1,\"topic\":\"Stats\"\\}:\\{\"lastUpdateTimestamp\":"
                    + "(\\d+),.*", "$1");
                assertTrue(Long.parseLong(lastUpdate) > 0, body);
                assertEquals("{\"offsetTable\":{"
                    + "{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"Stats\"}:"
                    + "{\"lastUpdateTimestamp\":0,\"maxOffset\":0,\"minOffset\":0},"
                    + "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"Stats\"}:"
                    + "{\"lastUpdateTimestamp\":" + lastUpdate + ",\"maxOffset\":1,\"minOffset\":0}},"
                    + "\"topicPutTps\":0.0}", body);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void topicStatsOfUnknownTopicIsTopicNotExist(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.GET_TOPIC_STATS_INFO, Map.of("topic", "Nope")))
            .map(response -> {
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, response.code());
                assertEquals("topic[Nope] not exist", response.remark());
                assertNull(response.body());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void systemTopicListNamesTheDefaultTopicAndTheBrokerTopics(Vertx vertx, VertxTestContext test,
                                                               @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER, Map.of()))
            .map(response -> {
                String list = new JsonObject(text(response)).getJsonArray("topicList").encode();
                assertTrue(list.contains("\"TBW102\"") && list.contains("\"broker-a\"")
                    && list.contains("\"DefaultCluster\"") && list.contains("\"SCHEDULE_TOPIC_XXXX\""), list);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
