package io.vrmq.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vrmq.namesrv.BrokerRequests.CLUSTER;
import static io.vrmq.namesrv.BrokerRequests.JSON;
import static io.vrmq.namesrv.BrokerRequests.register;
import static io.vrmq.namesrv.BrokerRequests.routeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin HTTP API on its own port, read with vertx-web-client after brokers registered over remoting. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class NameServerAdminIT {
    private static final String BROKER_A = "broker-a";
    private static final String MASTER_ADDR = "127.0.0.1:10911";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_700_000_000_000L);
    private static final TopicConfig TOPIC_T = TopicConfig.of("T", 4, Permission.READ_WRITE);

    @Test
    void healthSaysUpWithBrokerAndTopicCounts(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startWithOneBroker(vertx, dir)
            .compose(server -> get(http, server, "/health"))
            .map(response -> {
                assertJson(200, response);
                JsonObject health = response.bodyAsJsonObject();
                assertEquals("UP", health.getString("status"));
                assertEquals(1, health.getInteger("brokersAlive"));
                assertEquals(1, health.getInteger("topics"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void clustersListsTheRegisteredClusterAndGroup(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startWithOneBroker(vertx, dir)
            .compose(server -> get(http, server, "/api/v1/clusters"))
            .map(response -> {
                assertJson(200, response);
                JsonObject clusters = response.bodyAsJsonObject();
                assertEquals(new JsonArray().add(BROKER_A),
                    clusters.getJsonObject("clusterAddrTable").getJsonArray(CLUSTER));
                assertEquals(MASTER_ADDR, clusters.getJsonObject("brokerAddrTable").getJsonObject(BROKER_A)
                    .getJsonObject("brokerAddrs").getString("0"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void brokersListsEveryLiveBrokerProcess(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startWithOneBroker(vertx, dir)
            .compose(server -> get(http, server, "/api/v1/brokers"))
            .map(response -> {
                assertJson(200, response);
                JsonArray brokers = response.bodyAsJsonObject().getJsonArray("brokers");
                assertEquals(1, brokers.size());
                JsonObject broker = brokers.getJsonObject(0);
                assertEquals(MASTER_ADDR, broker.getString("brokerAddr"));
                assertEquals(BROKER_A, broker.getString("brokerName"));
                assertEquals(CLUSTER, broker.getString("clusterName"));
                assertEquals(0, broker.getInteger("brokerId"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void topicsListsEveryRegisteredTopic(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startWithOneBroker(vertx, dir)
            .compose(server -> get(http, server, "/api/v1/topics"))
            .map(response -> {
                assertJson(200, response);
                assertEquals(new JsonArray().add("T"), response.bodyAsJsonObject().getJsonArray("topics"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aTopicsRouteIsTheSameRouteRemotingAnswers(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startWithOneBroker(vertx, dir)
            .compose(server -> get(http, server, "/api/v1/topics/T/route"))
            .map(response -> {
                assertJson(200, response);
                TopicRouteData route = JSON.decode(response.body(), TopicRouteData.class);
                assertEquals(Map.of(0L, MASTER_ADDR), route.brokerDatas().get(0).brokerAddrs());
                assertEquals(4, route.queueDatas().get(0).writeQueueNums());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aRetryTopicsRouteIsFoundByItsUrlEncodedName(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TopicConfig retryTopic = TopicConfig.of("%RETRY%CG", 1, Permission.READ_WRITE);
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, retryTopic))
                .compose(registered -> get(http, server, "/api/v1/topics/%25RETRY%25CG/route")))
            .map(response -> {
                assertJson(200, response);
                TopicRouteData route = JSON.decode(response.body(), TopicRouteData.class);
                assertEquals(1, route.queueDatas().get(0).readQueueNums());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void anUnknownTopicsRouteIsA404JsonError(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startWithOneBroker(vertx, dir)
            .compose(server -> get(http, server, "/api/v1/topics/NO_SUCH_TOPIC/route"))
            .map(response -> {
                assertJson(404, response);
                JsonObject error = response.bodyAsJsonObject();
                assertEquals(404, error.getInteger("status"));
                assertTrue(error.getString("error").contains("NO_SUCH_TOPIC"), error.encode());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void anUnknownPathIsA404JsonError(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> get(http, server, "/api/v1/no-such-thing"))
            .map(response -> {
                assertJson(404, response);
                JsonObject error = response.bodyAsJsonObject();
                assertEquals(404, error.getInteger("status"));
                assertTrue(error.getString("error").contains("/api/v1/no-such-thing"), error.encode());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void metricsShowLiveBrokersAndRequestsByCode(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(), routeOf("T")))
                .compose(routed -> client.invoke(server.address(), routeOf("NO_SUCH_TOPIC")))
                .compose(refused -> get(http, server, "/metrics")))
            .map(response -> {
                assertEquals(200, response.statusCode());
                String text = response.bodyAsString();
                assertTrue(text.contains("mq_namesrv_brokers_alive 1.0"), text);
                assertTrue(text.contains("mq_namesrv_requests_total{code=\"103\",response_code=\"0\"} 1.0"), text);
                assertTrue(text.contains("mq_namesrv_requests_total{code=\"105\",response_code=\"0\"} 1.0"), text);
                assertTrue(text.contains("mq_namesrv_requests_total{code=\"105\",response_code=\""
                    + ResponseCode.TOPIC_NOT_EXIST + "\"} 1.0"), text);
                assertTrue(text.contains("mq_namesrv_request_latency_seconds_count{code=\"105\"} 2"), text);
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<TestNameServer> startWithOneBroker(Vertx vertx, Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        return TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .map(registered -> {
                    assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());
                    return server;
                }));
    }

    private static Future<HttpResponse<Buffer>> get(WebClient http, TestNameServer server, String path) {
        return http.get(server.adminPort(), TestNameServer.HOST, path).send();
    }

    private static void assertJson(int status, HttpResponse<Buffer> response) {
        assertEquals(status, response.statusCode(), response.bodyAsString());
        assertTrue(response.getHeader("content-type").startsWith("application/json"),
            response.getHeader("content-type"));
    }
}
