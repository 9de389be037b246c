package io.vrmq.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vrmq.namesrv.BrokerRequests.register;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console on the NameServer's admin port: its page, the brokers with the admin addresses they announced, and the
 * proxy to a live broker's admin API (here a plain HTTP server standing in for the broker's admin port).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class ConsoleProxyIT {
    private static final String BROKER_ADDR = "127.0.0.1:10911";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_700_000_000_000L);

    @Test
    void rootServesTheConsolePage(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> http.get(server.adminPort(), TestNameServer.HOST, "/").send())
            .map(page -> {
                assertEquals(200, page.statusCode());
                assertTrue(page.bodyAsString().contains("<title>vrmq console</title>"));
                assertTrue(page.getHeader("Content-Security-Policy").contains("default-src 'self'"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void proxyForwardsToTheAnnouncedAdminAddressWithTheTokenAndBody(Vertx vertx, VertxTestContext test,
                                                                    @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startFakeBrokerAdmin(vertx)
            .compose(admin -> startWithBroker(vertx, dir, "127.0.0.1:" + admin.actualPort()))
            .compose(server -> http.get(server.adminPort(), TestNameServer.HOST, "/api/v1/console/brokers").send()
                .compose(brokers -> {
                    JsonObject broker = brokers.bodyAsJsonObject().getJsonArray("brokers").getJsonObject(0);
                    assertEquals(BROKER_ADDR, broker.getString("brokerAddr"));
                    assertTrue(broker.getString("adminAddr").startsWith("127.0.0.1:"));
                    return http.post(server.adminPort(), TestNameServer.HOST,
                            "/proxy/127.0.0.1%3A10911/api/v1/topics?x=1")
                        .putHeader("Authorization", "Bearer secret")
                        .sendJsonObject(new JsonObject().put("topic", "T"));
                }))
            .map(echoed -> {
                assertEquals(201, echoed.statusCode(), echoed.bodyAsString());
                JsonObject seen = echoed.bodyAsJsonObject();
                assertEquals("POST", seen.getString("method"));
                assertEquals("/api/v1/topics?x=1", seen.getString("uri"));
                assertEquals("Bearer secret", seen.getString("authorization"));
                assertEquals("{\"topic\":\"T\"}", seen.getString("body"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void proxyRefusesUnknownBrokersAndPathsOutsideTheApi(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient http = WebClient.create(vertx);
        startFakeBrokerAdmin(vertx)
            .compose(admin -> startWithBroker(vertx, dir, "127.0.0.1:" + admin.actualPort()))
            .compose(server -> http.get(server.adminPort(), TestNameServer.HOST,
                    "/proxy/127.0.0.1%3A9999/api/v1/topics").send()
                .compose(unknown -> {
                    assertEquals(404, unknown.statusCode());
                    assertTrue(unknown.bodyAsJsonObject().getString("error").contains("no live broker"));
                    return http.get(server.adminPort(), TestNameServer.HOST, "/proxy/127.0.0.1%3A10911/metrics")
                        .send();
                }))
            .map(outside -> {
                assertEquals(404, outside.statusCode());
                assertNull(outside.getHeader("x-fake-broker"), "nothing reached the broker");
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    /** Answers every request with what it received, status 201. */
    private static Future<HttpServer> startFakeBrokerAdmin(Vertx vertx) {
        return vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body ->
                request.response().setStatusCode(201).putHeader("content-type", "application/json")
                    .putHeader("x-fake-broker", "yes")
                    .end(new JsonObject().put("method", request.method().name()).put("uri", request.uri())
                        .put("authorization", request.getHeader("Authorization"))
                        .put("body", body.toString()).encode())))
            .listen(0, TestNameServer.HOST);
    }

    private static Future<TestNameServer> startWithBroker(Vertx vertx, Path dir, String adminAddr) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingCommand plain = register("broker-a", 0, BROKER_ADDR, V1);
        Map<String, String> header = new HashMap<>(plain.extFieldsCopy());
        header.put("vrmqAdminAddr", adminAddr);
        RemotingCommand announcing = RemotingCommand.request(plain.code(), header, plain.body());
        return TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), announcing).map(registered -> {
                assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());
                return server;
            }));
    }
}
