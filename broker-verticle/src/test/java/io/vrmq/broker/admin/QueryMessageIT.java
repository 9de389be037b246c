package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
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
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** QUERY_MESSAGE (12) and VIEW_MESSAGE_BY_ID (33): stored records as the official client decodes them. */
@ExtendWith(VertxExtension.class)
class QueryMessageIT {
    /** CommitLog record layout: TOTALSIZE at 0, PHYSICALOFFSET at 28. */
    private static final int TOTAL_SIZE_OFFSET = 0;
    private static final int PHYSICAL_OFFSET_OFFSET = 28;
    private static final String UNIQ_KEY = "7F0000010001000000000000000000AB";

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void queryByBusinessKeyAnswersTheStoredRecord(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> sendKeyed(broker)
                .compose(offset -> broker.poll(() -> query(broker, "order-42", false),
                        response -> response.code() == ResponseCode.SUCCESS)
                    .map(response -> {
                        assertOneRecordAt(response, offset);
                        assertTrue(Long.parseLong(response.ext("indexLastUpdateTimestamp")) > 0);
                        assertTrue(Long.parseLong(response.ext("indexLastUpdatePhyoffset")) > offset);
                        return null;
                    })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void queryByMessageIdUsesTheUniqueKeyFlag(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> sendKeyed(broker)
                .compose(offset -> broker.poll(() -> query(broker, UNIQ_KEY, true),
                        response -> response.code() == ResponseCode.SUCCESS)
                    .map(response -> {
                        assertOneRecordAt(response, offset);
                        return null;
                    })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void queryWithoutHitIsQueryNotFound(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.createTopic("Q", 1).compose(created -> query(broker, "missing", false)))
            .map(response -> {
                assertEquals(ResponseCode.QUERY_NOT_FOUND, response.code());
                assertEquals("can not find message, maybe time range not correct", response.remark());
                assertNull(response.body());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void viewMessageByIdAnswersTheRecordAtThatOffset(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> sendKeyed(broker)
                .compose(offset -> broker.invoke(RequestCode.VIEW_MESSAGE_BY_ID, Map.of("offset",
                        Long.toString(offset)))
                    .map(response -> {
                        assertOneRecordAt(response, offset);
                        return null;
                    })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void viewMessageAtAnOffsetWithoutRecordIsSystemError(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker ->
                broker.invoke(RequestCode.VIEW_MESSAGE_BY_ID, Map.of("offset", "123456")))
            .map(response -> {
                assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
                assertEquals("can not find message by the offset, 123456", response.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    /** One message to topic Q with KEYS "order-42" and a UNIQ_KEY; answers its commit-log offset. */
    private static Future<Long> sendKeyed(AdminTestBroker broker) {
        Map<String, String> properties = new HashMap<>();
        properties.put("KEYS", "order-42");
        properties.put("UNIQ_KEY", UNIQ_KEY);
        properties.put("WAIT", "true");
        return broker.createTopic("Q", 1).compose(created -> broker.send("Q", 0, properties, "payload"));
    }

    private static Future<RemotingCommand> query(AdminTestBroker broker, String key, boolean isUniqueKey) {
        Map<String, String> header = new HashMap<>(Map.of("topic", "Q", "key", key, "maxNum", "32",
            "beginTimestamp", "0", "endTimestamp", Long.toString(Long.MAX_VALUE)));
        if (isUniqueKey) {
            header.put("_UNIQUE_KEY_QUERY", "true");
        }
        return broker.invoke(RequestCode.QUERY_MESSAGE, header);
    }

    private static void assertOneRecordAt(RemotingCommand response, long commitLogOffset) {
        assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
        assertEquals(response.body().length(), response.body().getInt(TOTAL_SIZE_OFFSET));
        assertEquals(commitLogOffset, response.body().getLong(PHYSICAL_OFFSET_OFFSET));
    }
}
