package io.vrmq.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.ClusterInfo;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
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
import static io.vrmq.namesrv.BrokerRequests.register;
import static io.vrmq.namesrv.BrokerRequests.routeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a broker leaves the NameServer without unregistering: its connection closes, or it stays silent past the
 * heartbeat timeout. Each test has a broker client (the connection that registers) and a separate query client.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 15, timeUnit = TimeUnit.SECONDS)
class BrokerLivenessIT {
    private static final String BROKER_A = "broker-a";
    private static final String MASTER_ADDR = "127.0.0.1:10911";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_700_000_000_000L);
    private static final TopicConfig TOPIC_T = TopicConfig.of("T", 4, Permission.READ_WRITE);
    private static final long SCAN_INTERVAL_MS = 200;
    private static final long EXPIRED_AFTER_MS = 1_000;

    @Test
    void closingTheBrokersConnectionDropsItsRoutes(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient brokerClient = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingClient queryClient = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> brokerClient.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> queryClient.invoke(server.address(), routeOf("T")))
                .compose(routed -> {
                    assertEquals(ResponseCode.SUCCESS, routed.code(), routed.remark());
                    return brokerClient.disconnect(server.address());
                })
                .compose(closed -> awaitTopicGone(vertx, queryClient, server)))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void closingAConnectionThatRegisteredNothingLeavesOtherBrokersAlone(Vertx vertx, VertxTestContext test,
                                                                       @TempDir Path dir) {
        RemotingClient brokerClient = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingClient bystander = new RemotingClient(vertx, RemotingLimits.defaults());
        WebClient http = WebClient.create(vertx);
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> brokerClient.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> bystander.invoke(server.address(), routeOf("T")))
                .compose(routed -> bystander.disconnect(server.address()))
                .compose(closed -> serverSeesOneConnection(vertx, http, server))
                .compose(seen -> brokerClient.invoke(server.address(),
                    RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO))))
            .map(response -> {
                ClusterInfo info = JSON.decode(response.body(), ClusterInfo.class);
                assertEquals(Map.of(0L, MASTER_ADDR), info.brokerAddrTable().get(BROKER_A).brokerAddrs());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aBrokerThatReRegisteredOverANewConnectionSurvivesItsOldConnectionClosing(Vertx vertx, VertxTestContext test,
                                                                                 @TempDir Path dir) {
        RemotingClient oldConnection = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingClient newConnection = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingCommand registration = register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T);
        WebClient http = WebClient.create(vertx);
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> oldConnection.invoke(server.address(), registration)
                .compose(registered -> newConnection.invoke(server.address(), registration))
                .compose(registered -> oldConnection.connection(server.address()))
                .compose(connection -> connection.close().compose(closing -> connection.closed()))
                .compose(closed -> serverSeesOneConnection(vertx, http, server))
                .compose(seen -> newConnection.invoke(server.address(),
                    RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO))))
            .map(response -> {
                ClusterInfo info = JSON.decode(response.body(), ClusterInfo.class);
                assertEquals(Map.of(0L, MASTER_ADDR), info.brokerAddrTable().get(BROKER_A).brokerAddrs());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aSilentBrokerExpiresAndItsConnectionIsClosed(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient brokerClient = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingClient queryClient = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, shortExpiry(dir))
            .compose(server -> brokerClient.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> {
                    assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());
                    return brokerClient.connection(server.address());
                })
                .compose(connection -> awaitTopicGone(vertx, queryClient, server)
                    .compose(gone -> connection.closed())
                    .map(closed -> connection)))
            .map(connection -> {
                assertTrue(connection.isClosed());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aBrokerGivenHeartbeatTimeoutShortensItsExpiry(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient brokerClient = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingClient queryClient = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingCommand registration = register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T);
        Map<String, String> header = registration.extFieldsCopy();
        header.put("heartbeatTimeoutMillis", Long.toString(EXPIRED_AFTER_MS));
        JsonObject defaultExpiry = TestNameServer.config(dir).put("scanNotActiveBrokerInterval", SCAN_INTERVAL_MS);
        TestNameServer.start(vertx, defaultExpiry)
            .compose(server -> brokerClient.invoke(server.address(),
                    RemotingCommand.request(RequestCode.REGISTER_BROKER, header, registration.body()))
                .compose(registered -> {
                    assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());
                    return awaitTopicGone(vertx, queryClient, server);
                }))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void heartbeatsKeepABrokerRegisteredPastTheTimeout(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient brokerClient = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingCommand heartbeat = RemotingCommand.request(RequestCode.BROKER_HEARTBEAT,
            BrokerRequests.brokerHeader(BrokerRequests.CLUSTER, BROKER_A, 0, MASTER_ADDR), null);
        long heartbeatCount = 2 * EXPIRED_AFTER_MS / SCAN_INTERVAL_MS;
        TestNameServer.start(vertx, shortExpiry(dir))
            .compose(server -> brokerClient.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> heartbeats(vertx, brokerClient, server, heartbeat, heartbeatCount))
                .compose(done -> brokerClient.invoke(server.address(), routeOf("T"))))
            .map(route -> {
                assertEquals(ResponseCode.SUCCESS, route.code(), route.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static JsonObject shortExpiry(Path dir) {
        return TestNameServer.config(dir)
            .put("scanNotActiveBrokerInterval", SCAN_INTERVAL_MS)
            .put("brokerChannelExpiredTime", EXPIRED_AFTER_MS);
    }

    /** Sends {@code count} heartbeats one scan interval apart; the broker would expire without them. */
    private static Future<Void> heartbeats(Vertx vertx, RemotingClient client, TestNameServer server,
                                           RemotingCommand heartbeat, long count) {
        if (count == 0) {
            return Future.succeededFuture();
        }
        return vertx.timer(SCAN_INTERVAL_MS)
            .compose(fired -> client.invoke(server.address(), heartbeat))
            .compose(answered -> {
                assertEquals(ResponseCode.SUCCESS, answered.code(), answered.remark());
                return heartbeats(vertx, client, server, heartbeat, count - 1);
            });
    }

    /** Waits until the server has handled the old connection's close: its connection gauge is down to one. */
    private static Future<String> serverSeesOneConnection(Vertx vertx, WebClient http, TestNameServer server) {
        return Eventually.until(vertx,
            () -> http.get(server.adminPort(), TestNameServer.HOST, "/metrics").send().map(HttpResponse::bodyAsString),
            metrics -> metrics.contains("\nmq_namesrv_connections 1.0"), "server-side connection count 1");
    }

    private static Future<RemotingCommand> awaitTopicGone(Vertx vertx, RemotingClient queryClient,
                                                          TestNameServer server) {
        return Eventually.until(vertx, () -> queryClient.invoke(server.address(), routeOf("T")),
            response -> response.code() == ResponseCode.TOPIC_NOT_EXIST, "route of T removed");
    }
}
