package io.vrmq.broker.admin;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Subscription group administration: 200, 201, 207, 352. */
@ExtendWith(VertxExtension.class)
class GroupAdminIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void createdGroupIsAnsweredByGetSubscriptionGroupConfig(Vertx vertx, VertxTestContext test,
                                                            @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                createGroup(broker, "{\"groupName\":\"OrderGroup\",\"consumeMessageOrderly\":true,"
                    + "\"retryMaxTimes\":3,\"consumeEnable\":true}")
                .compose(created -> broker.invoke(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG,
                    Map.of("group", "OrderGroup"))))
            .map(response -> {
                JsonObject group = new JsonObject(text(response));
                assertEquals("OrderGroup", group.getString("groupName"));
                assertTrue(group.getBoolean("consumeMessageOrderly"));
                assertEquals(3, group.getInteger("retryMaxTimes"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void fieldsLeftOutOfTheBodyTakeTheirDefaults(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> createGroup(broker, "{\"groupName\":\"Sparse\"}")
                .compose(created -> broker.invoke(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG,
                    Map.of("group", "Sparse"))))
            .map(response -> {
                JsonObject group = new JsonObject(text(response));
                assertTrue(group.getBoolean("consumeEnable"));
                assertTrue(group.getBoolean("consumeBroadcastEnable"));
                assertEquals(16, group.getInteger("retryMaxTimes"));
                assertEquals(1, group.getInteger("retryQueueNums"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void groupNameWithIllegalCharactersIsInvalidParameter(Vertx vertx, VertxTestContext test,
                                                          @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, Map.of(),
                Buffer.buffer("{\"groupName\":\"bad group!\"}")))
            .map(response -> {
                assertEquals(ResponseCode.INVALID_PARAMETER, response.code());
                assertEquals("The specified group: bad group!, contains illegal characters, allowing only "
                    + "^[%|a-zA-Z0-9_-]+$", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void allSubscriptionGroupsAreListedWithVersionAndCount(Vertx vertx, VertxTestContext test,
                                                           @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> createGroup(broker, "{\"groupName\":\"Listed\"}")
                .compose(created -> broker.invoke(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, Map.of())))
            .map(response -> {
                JsonObject body = new JsonObject(text(response));
                JsonObject table = body.getJsonObject("subscriptionGroupTable");
                assertTrue(table.containsKey("Listed"));
                assertEquals(Integer.toString(table.size()), response.ext("totalGroupNum"));
                assertTrue(body.getJsonObject("dataVersion").getLong("counter") > 0);
                assertEquals(new JsonObject(), body.getJsonObject("forbiddenTable"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void deletedGroupIsNoLongerFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> createGroup(broker, "{\"groupName\":\"Gone\"}")
                .compose(created -> broker.invoke(RequestCode.DELETE_SUBSCRIPTIONGROUP, Map.of("groupName", "Gone")))
                .map(AdminTestBroker::requireSuccess)
                .compose(deleted -> broker.invoke(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, Map.of("group", "Gone"))))
            .map(response -> {
                assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, response.code());
                assertEquals("No group in this broker", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void deleteWithCleanOffsetForgetsTheGroupsOffsets(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> createGroup(broker, "{\"groupName\":\"Cleaned\"}")
                .compose(created -> broker.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, Map.of("consumerGroup",
                    "Cleaned", "topic", "T", "queueId", "0", "commitOffset", "4")))
                .compose(committed -> broker.invoke(RequestCode.DELETE_SUBSCRIPTIONGROUP, Map.of("groupName",
                    "Cleaned", "cleanOffset", "true")))
                .compose(deleted -> broker.invoke(RequestCode.QUERY_TOPICS_BY_CONSUMER,
                    Map.of("group", "Cleaned"))))
            .map(response -> {
                assertFalse(text(response).contains("\"T\""), text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static io.vertx.core.Future<Void> createGroup(AdminTestBroker broker, String body) {
        return broker.invoke(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, Map.of(), Buffer.buffer(body))
            .map(AdminTestBroker::requireSuccess).mapEmpty();
    }
}
