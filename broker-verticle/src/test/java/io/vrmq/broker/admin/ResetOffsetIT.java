package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vrmq.broker.admin.AdminTestBroker.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** INVOKE_BROKER_TO_RESET_OFFSET (222) and the RESET_CONSUMER_CLIENT_OFFSET (220) notice it sends. */
@ExtendWith(VertxExtension.class)
class ResetOffsetIT {
    private static final String RESET_TO_END_BODY = "{\"offsetTable\":{"
        + "{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"Progress\"}:3,"
        + "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"Progress\"}:0}}";

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resetToTheEndCommitsEveryQueuesMaxOffset(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> groupWithProgress(broker)
                .compose(ready -> broker.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, resetToEnd(true)))
                .map(response -> {
                    assertEquals(ResponseCode.SUCCESS, response.code());
                    assertEquals(RESET_TO_END_BODY, text(response));
                    return null;
                })
                .compose(checked -> broker.invoke(RequestCode.QUERY_CONSUMER_OFFSET, Map.of("consumerGroup", "CG",
                    "topic", "Progress", "queueId", "0"))))
            .map(response -> {
                assertEquals("3", response.ext("offset"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resetWithoutForceNeverMovesAnOffsetForward(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> groupWithProgress(broker)
                .compose(ready -> broker.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, resetToEnd(false))))
            .map(response -> {
                assertTrue(text(response).contains("\"queueId\":0,\"topic\":\"Progress\"}:2,"), text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resetTellsOnlineMembersWithAOnewayResetConsumerClientOffset(Vertx vertx, VertxTestContext test,
                                                                     @TempDir Path storeDir) {
        Promise<RemotingCommand> notice = Promise.promise();
        ProcessorTable clientSide = ProcessorTable.builder()
            .register(RequestCode.RESET_CONSUMER_CLIENT_OFFSET, (connection, request) -> {
                notice.tryComplete(request);
                return Future.succeededFuture(null);
            })
            .build();
        AdminTestBroker.with(vertx, storeDir, clientSide, broker -> groupWithProgress(broker)
                .compose(ready -> broker.heartbeat("127.0.0.1@c1", "CG", "Progress"))
                .compose(beat -> broker.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, resetToEnd(true)))
                .compose(answered -> notice.future()))
            .map(request -> {
                assertTrue(request.isOneway());
                assertEquals(Map.of("topic", "Progress", "group", "CG", "timestamp", "-1", "isForce", "true"),
                    request.extFields());
                assertEquals(RESET_TO_END_BODY, request.body().toString());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void resetForUnknownGroupIsSubscriptionGroupNotExist(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Progress", 1)
                .compose(created -> broker.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, Map.of("topic",
                    "Progress", "group", "Ghost", "timestamp", "-1", "isForce", "true"))))
            .map(response -> {
                assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, response.code());
                assertEquals("Group Ghost does not exist", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static Map<String, String> resetToEnd(boolean isForce) {
        return Map.of("topic", "Progress", "group", "CG", "timestamp", "-1", "isForce", Boolean.toString(isForce));
    }

    /** Group CG exists, topic Progress has 3 messages in queue 0 of 2, CG committed 2 there. */
    private static Future<Void> groupWithProgress(AdminTestBroker broker) {
        return broker.invoke(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, Map.of(),
                Buffer.buffer("{\"groupName\":\"CG\"}"))
            .map(AdminTestBroker::requireSuccess)
            .compose(created -> ConsumeStatsIT.threeMessagesTwoConsumed(broker));
    }
}
