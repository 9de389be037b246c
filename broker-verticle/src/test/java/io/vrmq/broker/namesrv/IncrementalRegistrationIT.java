package io.vrmq.broker.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServerOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.RegisterBrokerBody;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A topic created on a started broker is registered alone (REGISTER_BROKER with that one topic and the table's new
 * data version, RocketMQ's incremental registration); the periodic registration still carries every topic. The
 * NameServer here records each REGISTER_BROKER body and accepts it.
 */
@ExtendWith(VertxExtension.class)
class IncrementalRegistrationIT {
    private static final RemotingJson JSON = new RemotingJson();
    private static final String NEW_TOPIC = "IncrementalTopic";
    private static final long PERIOD_MS = 1_000;
    private static final long WAIT_MS = 15_000;

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aCreatedTopicIsRegisteredAloneAndThePeriodicRegistrationStaysFull(Vertx vertx, VertxTestContext test,
                                                                            @TempDir Path dir) {
        List<RegisterBrokerBody> bodies = new CopyOnWriteArrayList<>();
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        fakeNameServer(vertx, bodies).listen("127.0.0.1", 0).compose(namesrvPort -> {
            BrokerVerticle broker = new BrokerVerticle(TestBrokerRequests.config(dir)
                .put("namesrvAddr", "127.0.0.1:" + namesrvPort).put("registerNameServerPeriod", PERIOD_MS));
            return vertx.deployVerticle(broker).compose(id -> {
                int startRegistrations = bodies.size();
                String addr = "127.0.0.1:" + broker.listenPort();
                return client.invoke(addr, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC,
                        Map.of("topic", NEW_TOPIC, "readQueueNums", "2", "writeQueueNums", "2", "perm", "6",
                            "topicFilterType", "SINGLE_TAG", "order", "false"), null))
                    .map(TestBrokerRequests::requireSuccess)
                    .compose(created -> TestBrokerRequests.pollFor(vertx, () -> Future.succeededFuture(bodies),
                        all -> fullAfterIncrement(all, startRegistrations) >= 0, WAIT_MS))
                    .map(all -> {
                        test.verify(() -> {
                            RegisterBrokerBody first = all.get(0);
                            assertTrue(first.topicConfigSerializeWrapper().topicConfigTable().size() > 1,
                                "the start-up registration is full");
                            int increment = incrementIndex(all, startRegistrations);
                            RegisterBrokerBody alone = all.get(increment);
                            assertEquals(2, alone.topicConfigSerializeWrapper().topicConfigTable().get(NEW_TOPIC)
                                .writeQueueNums());
                            DataVersion before = all.get(increment - 1).topicConfigSerializeWrapper().dataVersion();
                            DataVersion incremented = alone.topicConfigSerializeWrapper().dataVersion();
                            assertTrue(incremented.counter() > before.counter(), before + " then " + incremented);
                            RegisterBrokerBody full = all.get(fullAfterIncrement(all, startRegistrations));
                            assertTrue(full.topicConfigSerializeWrapper().topicConfigTable().keySet()
                                .containsAll(first.topicConfigSerializeWrapper().topicConfigTable().keySet()));
                            assertEquals(incremented, full.topicConfigSerializeWrapper().dataVersion());
                        });
                        return id;
                    });
            }).compose(vertx::undeploy);
        }).onComplete(test.succeedingThenComplete());
    }

    /** The first registration from {@code from} on that carries only the new topic, or -1. */
    private static int incrementIndex(List<RegisterBrokerBody> bodies, int from) {
        for (int i = from; i < bodies.size(); i++) {
            if (bodies.get(i).topicConfigSerializeWrapper().topicConfigTable().keySet().equals(Set.of(NEW_TOPIC))) {
                return i;
            }
        }
        return -1;
    }

    /** A later full registration (more than one topic, the new one among them), or -1. */
    private static int fullAfterIncrement(List<RegisterBrokerBody> bodies, int from) {
        int increment = incrementIndex(bodies, from);
        if (increment < 0) {
            return -1;
        }
        for (int i = increment + 1; i < bodies.size(); i++) {
            Map<String, ?> topics = bodies.get(i).topicConfigSerializeWrapper().topicConfigTable();
            if (topics.size() > 1 && topics.containsKey(NEW_TOPIC)) {
                return i;
            }
        }
        return -1;
    }

    /** Accepts every registration and adds its decoded body to {@code bodies}, in arrival order; not listening yet. */
    private static RemotingServer fakeNameServer(Vertx vertx, List<RegisterBrokerBody> bodies) {
        ProcessorTable namesrv = ProcessorTable.builder()
            .register(RequestCode.REGISTER_BROKER, (connection, request) -> {
                bodies.add(JSON.decode(request.body(), RegisterBrokerBody.class));
                return Future.succeededFuture(RemotingCommand.success(request, Map.of(), null));
            })
            .register(RequestCode.UNREGISTER_BROKER, (connection, request) ->
                Future.succeededFuture(RemotingCommand.success(request, null)))
            .build();
        return new RemotingServer(vertx, new NetServerOptions(), RemotingLimits.defaults(), 16, new AtomicInteger(),
            namesrv, RemotingObserver.NONE);
    }
}
