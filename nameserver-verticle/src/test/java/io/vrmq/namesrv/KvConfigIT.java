package io.vrmq.namesrv;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.KVTable;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vrmq.namesrv.BrokerRequests.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The KV config commands (100, 101, 102, 219) over real sockets, and the KV file across a restart. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class KvConfigIT {
    private static final String NAMESPACE = "ORDER_TOPIC_CONFIG";

    @Test
    void aPutValueIsReadBack(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), put("T", "broker-a:4"))
                .compose(put -> {
                    assertEquals(ResponseCode.SUCCESS, put.code(), put.remark());
                    return client.invoke(server.address(), get("T"));
                }))
            .map(got -> {
                assertEquals(ResponseCode.SUCCESS, got.code(), got.remark());
                assertEquals("broker-a:4", got.ext("value"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aMissingKeyIsAnsweredQueryNotFound(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), get("NOPE")))
            .map(got -> {
                assertEquals(ResponseCode.QUERY_NOT_FOUND, got.code());
                assertTrue(got.remark().contains("NOPE"), got.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aDeletedKeyIsGone(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), put("T", "broker-a:4"))
                .compose(put -> client.invoke(server.address(), delete("T")))
                .compose(deleted -> {
                    assertEquals(ResponseCode.SUCCESS, deleted.code(), deleted.remark());
                    return client.invoke(server.address(), get("T"));
                }))
            .map(got -> {
                assertEquals(ResponseCode.QUERY_NOT_FOUND, got.code());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theKvListOfANamespaceHasEveryEntry(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), put("T1", "broker-a:4"))
                .compose(put -> client.invoke(server.address(), put("T2", "broker-b:8")))
                .compose(put -> client.invoke(server.address(), list(NAMESPACE))))
            .map(listed -> {
                assertEquals(ResponseCode.SUCCESS, listed.code(), listed.remark());
                assertEquals(Map.of("T1", "broker-a:4", "T2", "broker-b:8"),
                    JSON.decode(listed.body(), KVTable.class).table());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theKvListOfAnEmptyNamespaceIsAnsweredQueryNotFound(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), list("EMPTY_NAMESPACE")))
            .map(listed -> {
                assertEquals(ResponseCode.QUERY_NOT_FOUND, listed.code());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theKvFileSurvivesUndeployAndRedeploy(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        JsonObject config = TestNameServer.config(dir);
        TestNameServer.start(vertx, config)
            .compose(first -> client.invoke(first.address(), put("KEPT", "broker-a:4"))
                .compose(put -> client.invoke(first.address(), put("DROPPED", "broker-a:2")))
                .compose(put -> client.invoke(first.address(), delete("DROPPED")))
                .compose(deleted -> client.disconnect(first.address()))
                .compose(disconnected -> first.stop()))
            .compose(stopped -> vertx.fileSystem().exists(config.getString("kvConfigPath")))
            .compose(exists -> {
                assertTrue(exists, "the KV file exists after undeploy");
                return TestNameServer.start(vertx, config);
            })
            .compose(second -> client.invoke(second.address(), list(NAMESPACE)))
            .map(listed -> {
                assertEquals(ResponseCode.SUCCESS, listed.code(), listed.remark());
                assertEquals(Map.of("KEPT", "broker-a:4"), JSON.decode(listed.body(), KVTable.class).table());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theKvFileHasRocketMqsConfigTableForm(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        JsonObject config = TestNameServer.config(dir);
        TestNameServer.start(vertx, config)
            .compose(server -> client.invoke(server.address(), put("T", "broker-a:4")))
            .compose(put -> vertx.fileSystem().readFile(config.getString("kvConfigPath")))
            .map(file -> {
                assertEquals(new JsonObject().put("configTable", new JsonObject()
                    .put(NAMESPACE, new JsonObject().put("T", "broker-a:4"))), file.toJsonObject());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void withOrderMessageEnableTheRouteAndTheRegistrationCarryTheOrderTopicConf(Vertx vertx, VertxTestContext test,
                                                                               @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingCommand registration = BrokerRequests.register("broker-a", 0, "127.0.0.1:10911",
            new DataVersion(1, 0, 1), TopicConfig.of("T", 4, Permission.READ_WRITE));
        TestNameServer.start(vertx, TestNameServer.config(dir).put("orderMessageEnable", true))
            .compose(server -> client.invoke(server.address(), put("T", "broker-a:4"))
                .compose(put -> client.invoke(server.address(), registration))
                .compose(registered -> {
                    assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());
                    assertEquals(Map.of("T", "broker-a:4"), JSON.decode(registered.body(), KVTable.class).table());
                    return client.invoke(server.address(), BrokerRequests.routeOf("T"));
                }))
            .map(route -> {
                assertEquals(ResponseCode.SUCCESS, route.code(), route.remark());
                assertEquals("broker-a:4", JSON.decode(route.body(), TopicRouteData.class).orderTopicConf());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static RemotingCommand put(String key, String value) {
        return RemotingCommand.request(RequestCode.PUT_KV_CONFIG,
            Map.of("namespace", NAMESPACE, "key", key, "value", value), null);
    }

    private static RemotingCommand get(String key) {
        return RemotingCommand.request(RequestCode.GET_KV_CONFIG, Map.of("namespace", NAMESPACE, "key", key), null);
    }

    private static RemotingCommand delete(String key) {
        return RemotingCommand.request(RequestCode.DELETE_KV_CONFIG, Map.of("namespace", NAMESPACE, "key", key),
            null);
    }

    private static RemotingCommand list(String namespace) {
        return RemotingCommand.request(RequestCode.GET_KVLIST_BY_NAMESPACE, Map.of("namespace", namespace), null);
    }
}
