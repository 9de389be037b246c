package io.vrmq.broker.admin;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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

/** LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42) over the wire; expiry is covered by QueueLockTableTest. */
@ExtendWith(VertxExtension.class)
class QueueLockIT {
    private static final String QUEUES = "[{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"T\"},"
        + "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"T\"}]";

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void lockGrantsFreeQueuesAndListsThemInLockOkMqSet(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> lock(broker, RequestCode.LOCK_BATCH_MQ, "c1"))
            .map(response -> {
                assertEquals("{\"lockOKMQSet\":" + QUEUES + "}", text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void queuesLockedByOneClientAreNotGrantedToAnother(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> lock(broker, RequestCode.LOCK_BATCH_MQ, "c1")
                .compose(locked -> lock(broker, RequestCode.LOCK_BATCH_MQ, "c2")))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                assertEquals("{\"lockOKMQSet\":[]}", text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void unlockedQueuesCanBeLockedByAnotherClient(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> lock(broker, RequestCode.LOCK_BATCH_MQ, "c1")
                .compose(locked -> lock(broker, RequestCode.UNLOCK_BATCH_MQ, "c1"))
                .map(AdminTestBroker::requireSuccess)
                .compose(unlocked -> lock(broker, RequestCode.LOCK_BATCH_MQ, "c2")))
            .map(response -> {
                assertEquals("{\"lockOKMQSet\":" + QUEUES + "}", text(response));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static io.vertx.core.Future<RemotingCommand> lock(AdminTestBroker broker, int code, String clientId) {
        String body = "{\"clientId\":\"" + clientId + "\",\"consumerGroup\":\"CG\",\"mqSet\":" + QUEUES
            + ",\"onlyThisBroker\":false}";
        return broker.invoke(code, Map.of(), Buffer.buffer(body));
    }
}
