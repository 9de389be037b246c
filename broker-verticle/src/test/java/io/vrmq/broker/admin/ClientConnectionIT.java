package io.vrmq.broker.admin;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET_CONSUMER_CONNECTION_LIST (203) and GET_PRODUCER_CONNECTION_LIST (204). */
@ExtendWith(VertxExtension.class)
class ClientConnectionIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void consumerConnectionListsTheMemberAndItsSubscription(Vertx vertx, VertxTestContext test,
                                                            @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.heartbeat("127.0.0.1@c1", "CG", "T")
                .compose(beat -> broker.invoke(RequestCode.GET_CONSUMER_CONNECTION_LIST,
                    Map.of("consumerGroup", "CG"))))
            .map(response -> {
                JsonObject body = new JsonObject(text(response));
                assertEquals("CONSUME_PASSIVELY", body.getString("consumeType"));
                assertEquals("CLUSTERING", body.getString("messageModel"));
                assertEquals("CONSUME_FROM_LAST_OFFSET", body.getString("consumeFromWhere"));
                assertEquals("*", body.getJsonObject("subscriptionTable").getJsonObject("T").getString("subString"));
                JsonArray connections = body.getJsonArray("connectionSet");
                assertEquals(1, connections.size());
                JsonObject connection = connections.getJsonObject(0);
                assertEquals("127.0.0.1@c1", connection.getString("clientId"));
                assertEquals("JAVA", connection.getString("language"));
                assertEquals(513, connection.getInteger("version"));
                assertTrue(connection.getString("clientAddr").matches("127\\.0\\.0\\.1:\\d+"),
                    connection.getString("clientAddr"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void consumerConnectionOfGroupWithoutMembersIsConsumerNotOnline(Vertx vertx, VertxTestContext test,
                                                                    @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.invoke(RequestCode.GET_CONSUMER_CONNECTION_LIST,
                Map.of("consumerGroup", "Nobody")))
            .map(response -> {
                assertEquals(ResponseCode.CONSUMER_NOT_ONLINE, response.code());
                assertEquals("the consumer group[Nobody] not online", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void producerConnectionListsTheProducer(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.heartbeat("127.0.0.1@p1", "CG", "T")
                .compose(beat -> broker.invoke(RequestCode.GET_PRODUCER_CONNECTION_LIST,
                    Map.of("producerGroup", "PG"))))
            .map(response -> {
                JsonArray connections = new JsonObject(text(response)).getJsonArray("connectionSet");
                assertEquals(1, connections.size());
                assertEquals("127.0.0.1@p1", connections.getJsonObject(0).getString("clientId"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void producerConnectionOfUnknownGroupIsSystemError(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.invoke(RequestCode.GET_PRODUCER_CONNECTION_LIST,
                Map.of("producerGroup", "Ghost")))
            .map(response -> {
                assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
                assertEquals("the producer group[Ghost] not exist", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
