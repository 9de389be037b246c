package io.vrmq.broker.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two clients over one remoting connection, as the broker's gRPC endpoint carries all its clients over its link:
 * when one goes silent past channelExpiredTimeout only its registration goes, and the connection stays open for the
 * other (closing it failed every call of every other gRPC client).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SharedConnectionExpiryIT {
    private static final long EXPIRY_MS = 1_000;
    private static final long LIVE_HEARTBEAT_MS = 200;

    @Test
    void aSilentClientGoesAloneAndTheSharedConnectionStays(Vertx vertx, VertxTestContext test,
                                                           @TempDir Path dir) {
        BrokerVerticle broker = new BrokerVerticle(TestBrokerRequests.config(dir)
            .put("channelExpiredTimeout", EXPIRY_MS).put("clientChannelScanInterval", 100));
        RemotingClient client = new RemotingClient(vertx, new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 3_000,
            1_024));
        vertx.deployVerticle(broker).compose(id -> {
            String address = "127.0.0.1:" + broker.listenPort();
            return client.connection(address).compose(connection -> heartbeat(client, address, "silent@1", "GS")
                .compose(registered -> {
                    long timer = vertx.setPeriodic(LIVE_HEARTBEAT_MS, tick -> heartbeat(client, address, "live@1",
                        "GL"));
                    return heartbeat(client, address, "live@1", "GL")
                        .compose(live -> TestBrokerRequests.pollFor(vertx, () -> consumers(client, address, "GS"),
                            reply -> reply.code() == ResponseCode.SYSTEM_ERROR, 10 * EXPIRY_MS))
                        // Another scan or two after the silent one went: the connection must still be open.
                        .compose(gone -> TestBrokerRequests.pause(vertx, 3 * 100))
                        .compose(waited -> client.connection(address))
                        .compose(after -> consumers(client, address, "GL").map(live -> {
                            test.verify(() -> {
                                assertFalse(connection.isClosed(), "the shared connection was closed");
                                assertTrue(connection == after, "the client had to reconnect");
                                assertEquals(ResponseCode.SUCCESS, live.code(), live.remark());
                                assertTrue(live.body().toString().contains("live@1"));
                            });
                            return null;
                        }))
                        .eventually(() -> {
                            vertx.cancelTimer(timer);
                            return Future.succeededFuture();
                        });
                }))
                .eventually(() -> client.close().eventually(() -> vertx.undeploy(id)));
        }).onComplete(test.succeedingThenComplete());
    }

    private static Future<RemotingCommand> heartbeat(RemotingClient client, String address, String clientId,
                                                     String group) {
        return client.invoke(address, RemotingCommand.request(RequestCode.HEART_BEAT, null,
                Buffer.buffer(TestBrokerRequests.heartbeatBody(clientId, group, "T"))))
            .map(TestBrokerRequests::requireSuccess);
    }

    private static Future<RemotingCommand> consumers(RemotingClient client, String address, String group) {
        return client.invoke(address, RemotingCommand.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP,
            Map.of("consumerGroup", group), null));
    }
}
