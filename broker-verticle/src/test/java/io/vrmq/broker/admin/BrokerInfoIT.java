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

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static io.vrmq.broker.admin.AdminTestBroker.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET_BROKER_CONFIG (26) and GET_BROKER_RUNTIME_INFO (28) as mqadmin reads them. */
@ExtendWith(VertxExtension.class)
class BrokerInfoIT {
    /** Every key mqadmin clusterList parses as a number or reads (a missing one throws or prints null). */
    private static final List<String> CLUSTER_LIST_KEYS = List.of("msgPutTotalYesterdayMorning",
        "msgPutTotalTodayMorning", "msgPutTotalTodayNow", "msgGetTotalYesterdayMorning", "msgGetTotalTodayMorning",
        "msgGetTotalTodayNow", "brokerActive", "putTps", "getTransferredTps", "sendThreadPoolQueueSize",
        "pullThreadPoolQueueSize", "sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueHeadWaitTimeMills",
        "pageCacheLockTimeMills", "earliestMessageTimeStamp", "commitLogDiskRatio", "timerReadBehind",
        "timerOffsetBehind", "timerCongestNum", "timerEnqueueTps", "timerDequeueTps", "brokerVersionDesc");

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void brokerConfigIsPropertiesTextWithDataVersionHeader(Vertx vertx, VertxTestContext test,
                                                           @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.invoke(RequestCode.GET_BROKER_CONFIG, Map.of()))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                Properties properties = properties(text(response));
                assertEquals("broker-a", properties.getProperty("brokerName"));
                assertEquals("DefaultCluster", properties.getProperty("brokerClusterName"));
                assertEquals("1048576", properties.getProperty("maxMessageSize"));
                assertEquals("ASYNC_FLUSH", properties.getProperty("flushDiskType"));
                assertEquals(storeDir.toString(), properties.getProperty("storePathRootDir"));
                JsonObject version = new JsonObject(response.ext("version"));
                assertEquals(0L, version.getLong("counter"));
                assertEquals(0L, version.getLong("stateVersion"));
                assertTrue(version.getLong("timestamp") > 0);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void runtimeInfoCarriesEveryKeyClusterListReadsInItsFormat(Vertx vertx, VertxTestContext test,
                                                               @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.invoke(RequestCode.GET_BROKER_RUNTIME_INFO, Map.of()))
            .map(response -> {
                JsonObject table = new JsonObject(text(response)).getJsonObject("table");
                CLUSTER_LIST_KEYS.forEach(key -> assertNotNull(table.getString(key), key));
                Long.parseLong(table.getString("msgPutTotalTodayNow"));
                Long.parseLong(table.getString("earliestMessageTimeStamp"));
                Double.parseDouble(table.getString("commitLogDiskRatio"));
                Double.parseDouble(table.getString("putTps").split(" ")[0]);
                Double.parseDouble(table.getString("getTransferredTps").split(" ")[0]);
                Float.parseFloat(table.getString("timerEnqueueTps"));
                assertEquals("V5_5_0", table.getString("brokerVersionDesc"));
                assertEquals("513", table.getString("brokerVersion"));
                assertEquals("0", table.getString("pageCacheLockTimeMills"));
                assertTrue(table.getString("runtime").matches("\\[ \\d+ days, \\d+ hours, \\d+ minutes, \\d+ "
                    + "seconds \\]"), table.getString("runtime"));
                assertNotNull(table.getString("bootTimestamp"));
                assertNotNull(table.getString("commitLogMaxOffset"));
                assertNotNull(table.getString("commitLogMinOffset"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void runtimeInfoCountsStoredMessagesAndCommitLogBytes(Vertx vertx, VertxTestContext test,
                                                          @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Counted", 1)
                .compose(created -> broker.send("Counted", 0, Map.of(), "one"))
                .compose(sent -> broker.send("Counted", 0, Map.of(), "two"))
                .compose(sent -> broker.awaitDispatched("Counted", 0, 2))
                .compose(dispatched -> broker.invoke(RequestCode.GET_BROKER_RUNTIME_INFO, Map.of())))
            .map(response -> {
                JsonObject table = new JsonObject(text(response)).getJsonObject("table");
                assertEquals("2", table.getString("msgPutTotalTodayNow"));
                assertTrue(Long.parseLong(table.getString("commitLogMaxOffset")) > 0);
                assertTrue(Long.parseLong(table.getString("earliestMessageTimeStamp")) > 0);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static Properties properties(String text) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
