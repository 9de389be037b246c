package io.vrmq.broker.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker registers before its admin API starts (the first registration does not wait for it), and once the
 * admin API listens registers again with the admin address, so the NameServer's last word from a started broker names its admin
 * API; the admin API serves by then. The NameServer here is a remoting server that accepts every REGISTER_BROKER and
 * records what each carried.
 */
@ExtendWith(VertxExtension.class)
class RegistrationBesideAdminIT {

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void theLastRegistrationOfAStartedBrokerNamesItsServingAdminApi(Vertx vertx, VertxTestContext test,
                                                                   @TempDir Path dir) {
        List<String> announcedAdminAddrs = new CopyOnWriteArrayList<>();
        RemotingServer server = fakeNameServer(vertx, announcedAdminAddrs);
        server.listen("127.0.0.1", 0).compose(namesrvPort -> {
            JsonObject config = TestBrokerRequests.config(dir).put("namesrvAddr", "127.0.0.1:" + namesrvPort)
                .put("adminPort", 0);
            BrokerVerticle broker = new BrokerVerticle(config);
            return vertx.deployVerticle(broker).compose(id -> {
                String adminAddr = "127.0.0.1:" + broker.adminPort();
                test.verify(() -> {
                    assertTrue(broker.adminPort() > 0, "the admin API listens once the start completed");
                    assertTrue(announcedAdminAddrs.size() >= 2, "registered twice: " + announcedAdminAddrs);
                    assertEquals("", announcedAdminAddrs.get(0), "the first registration does not wait for the admin "
                        + "API: " + announcedAdminAddrs);
                    assertEquals(adminAddr, announcedAdminAddrs.get(announcedAdminAddrs.size() - 1));
                });
                return vertx.createHttpClient().request(HttpMethod.GET, broker.adminPort(), "127.0.0.1", "/health")
                    .compose(request -> request.send())
                    .map(response -> {
                        test.verify(() -> assertEquals(200, response.statusCode()));
                        return id;
                    });
            }).compose(vertx::undeploy);
        }).onComplete(test.succeedingThenComplete());
    }

    /** With the admin API off the broker registers (once its start needs it) and announces no admin address. */
    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void withoutAnAdminApiNoRegistrationNamesOne(Vertx vertx, VertxTestContext test,
                                                                 @TempDir Path dir) {
        List<String> announcedAdminAddrs = new CopyOnWriteArrayList<>();
        RemotingServer server = fakeNameServer(vertx, announcedAdminAddrs);
        server.listen("127.0.0.1", 0).compose(namesrvPort -> {
            BrokerVerticle broker = new BrokerVerticle(TestBrokerRequests.config(dir)
                .put("namesrvAddr", "127.0.0.1:" + namesrvPort));
            return vertx.deployVerticle(broker).map(id -> {
                test.verify(() -> {
                    assertFalse(announcedAdminAddrs.isEmpty(), "registered during the start");
                    assertTrue(announcedAdminAddrs.stream().allMatch(String::isEmpty), announcedAdminAddrs.toString());
                    assertFalse(broker.adminPort() > 0);
                });
                return id;
            }).compose(vertx::undeploy);
        }).onComplete(test.succeedingThenComplete());
    }

    /**
     * A NameServer that accepts every registration and adds the admin address each one carried to
     * {@code announcedAdminAddrs} ("" for none), in arrival order; not listening yet.
     */
    private static RemotingServer fakeNameServer(Vertx vertx, List<String> announcedAdminAddrs) {
        ProcessorTable namesrv = ProcessorTable.builder()
            .register(RequestCode.REGISTER_BROKER, (connection, request) -> {
                String adminAddr = request.ext(NameServerRegistrar.ADMIN_ADDR_FIELD);
                announcedAdminAddrs.add(adminAddr == null ? "" : adminAddr);
                return Future.succeededFuture(RemotingCommand.success(request, Map.of(), null));
            })
            .register(RequestCode.UNREGISTER_BROKER, (connection, request) ->
                Future.succeededFuture(RemotingCommand.success(request, null)))
            .build();
        return new RemotingServer(vertx, new NetServerOptions(), RemotingLimits.defaults(), 16, new AtomicInteger(),
            namesrv, RemotingObserver.NONE);
    }
}
