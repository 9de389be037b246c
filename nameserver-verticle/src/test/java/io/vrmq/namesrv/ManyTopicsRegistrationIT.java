package io.vrmq.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.vrmq.namesrv.BrokerRequests.JSON;
import static io.vrmq.namesrv.BrokerRequests.register;
import static io.vrmq.namesrv.BrokerRequests.routeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One broker registering 50,000 topics at once (the scale table's largest level): every topic is routed, and a
 * second registration with a new data version changes only what it changed. Prints how long each registration
 * took (for the scale table's notes; no assertion on it).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
class ManyTopicsRegistrationIT {
    private static final int TOPICS = 50_000;
    private static final String BROKER_A = "broker-a";
    private static final String MASTER_ADDR = "127.0.0.1:10911";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_700_000_000_000L);
    private static final DataVersion V2 = new DataVersion(2, 0, 1_700_000_000_500L);

    @Test
    void fiftyThousandTopicsAreAllRoutedAndAReRegistrationAppliesItsChange(Vertx vertx, VertxTestContext test,
                                                                         @TempDir Path dir) {
        TopicConfig[] first = topics(Permission.READ_WRITE);
        TopicConfig[] second = topics(Permission.READ_WRITE);
        second[TOPICS - 1] = TopicConfig.of(second[TOPICS - 1].topicName(), 8, Permission.READ);
        // A long request timeout: the registration's time is what is looked at, not bounded here.
        RemotingLimits defaults = RemotingLimits.defaults();
        RemotingClient client = new RemotingClient(vertx, new RemotingLimits(defaults.maxFrameBytes(),
            defaults.maxHeaderBytes(), 60_000, defaults.maxPendingRequests()));
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> timed(client, server, register(BROKER_A, 0, MASTER_ADDR, V1, first), "first")
                .compose(ok -> allRouted(client, server, Permission.READ_WRITE))
                .compose(ok -> timed(client, server, register(BROKER_A, 0, MASTER_ADDR, V2, second), "second"))
                .compose(ok -> client.invoke(server.address(), routeOf(topicName(TOPICS - 1))))
                .map(response -> {
                    assertEquals(List.of(new QueueData(BROKER_A, 8, 8, Permission.READ, 0)),
                        JSON.decode(response.body(), TopicRouteData.class).queueDatas());
                    return null;
                })
                .compose(ok -> client.invoke(server.address(), routeOf(topicName(0))))
                .map(response -> {
                    assertEquals(List.of(new QueueData(BROKER_A, 4, 4, Permission.READ_WRITE, 0)),
                        JSON.decode(response.body(), TopicRouteData.class).queueDatas());
                    return null;
                }))
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<Void> allRouted(RemotingClient client, TestNameServer server, int perm) {
        Future<Void> chain = Future.succeededFuture();
        for (int i : new int[] {0, 1, TOPICS / 2, TOPICS - 2, TOPICS - 1}) {
            chain = chain.compose(ok -> client.invoke(server.address(), routeOf(topicName(i))).map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), topicName(i) + ": " + response.remark());
                assertEquals(List.of(new QueueData(BROKER_A, 4, 4, perm, 0)),
                    JSON.decode(response.body(), TopicRouteData.class).queueDatas());
                return null;
            }));
        }
        return chain;
    }

    private static Future<Void> timed(RemotingClient client, TestNameServer server, RemotingCommand request,
                                      String which) {
        long startNs = System.nanoTime();
        return client.invoke(server.address(), request).map(response -> {
            assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
            System.out.printf("%d-topic registration (%s, body %d bytes): %d ms%n", TOPICS, which,
                request.body().length(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
            return null;
        });
    }

    private static TopicConfig[] topics(int perm) {
        TopicConfig[] topics = new TopicConfig[TOPICS];
        for (int i = 0; i < TOPICS; i++) {
            topics[i] = TopicConfig.of(topicName(i), 4, perm);
        }
        return topics;
    }

    private static String topicName(int i) {
        return "Scale_t_" + i;
    }
}
