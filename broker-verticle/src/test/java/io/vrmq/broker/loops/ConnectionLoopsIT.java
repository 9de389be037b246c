package io.vrmq.broker.loops;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServerOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One port served from several event loops, as the broker serves listenPort with serverSelectorThreads above 1. */
@ExtendWith(VertxExtension.class)
class ConnectionLoopsIT {
    private static final int LOOPS = 2;
    private static final int CONNECTIONS = 4;
    private static final int SENDS_PER_CONNECTION = 50;

    /**
     * Connections are spread over the loops; a send runs on its connection's loop, in the order the connection sent
     * it; any other request runs on the broker's own context.
     */
    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void sendsRunOnTheirConnectionsLoopInOrderAndOtherRequestsOnTheHomeContext(Vertx vertx, VertxTestContext test)
        throws IOException {
        int port = freePort();
        Context home = vertx.getOrCreateContext();
        Set<String> sendThreads = ConcurrentHashMap.newKeySet();
        Map<String, List<Integer>> sendOrder = new ConcurrentHashMap<>();
        List<String> offHome = new CopyOnWriteArrayList<>();
        ProcessorTable table = ProcessorTable.builder()
            .register(RequestCode.SEND_MESSAGE, (connection, request) -> {
                sendThreads.add(Thread.currentThread().getName());
                sendOrder.computeIfAbsent(connection.remoteAddress(), address -> new CopyOnWriteArrayList<>())
                    .add(Integer.parseInt(request.ext("seq")));
                return Future.succeededFuture(RemotingCommand.success(request, null));
            })
            .register(RequestCode.HEART_BEAT, (connection, request) -> {
                if (Vertx.currentContext() != home) {
                    offHome.add(Thread.currentThread().getName());
                }
                return Future.succeededFuture(RemotingCommand.success(request, null));
            })
            .build();
        List<RemotingClient> clients = new ArrayList<>();
        home.runOnContext(ignored -> {
            List<Context> loops = ConnectionLoops.of(vertx, home, LOOPS);
            ProcessorTable confined = HomeContextProcessors.confine(table, home);
            AtomicInteger connections = new AtomicInteger();
            List<Future<Integer>> bound = new ArrayList<>();
            for (Context loop : loops) {
                RemotingServer server = new RemotingServer(vertx, new NetServerOptions(), RemotingLimits.defaults(),
                    CONNECTIONS * 2, connections, confined, RemotingObserver.NONE);
                bound.add(ConnectionLoops.listenOn(loop, server, "127.0.0.1", port));
            }
            Future.all(bound)
                .compose(listening -> Future.all(IntStream.range(0, CONNECTIONS).mapToObj(i -> {
                    RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
                    clients.add(client);
                    return sendAll(client, "127.0.0.1:" + port);
                }).toList()))
                .onComplete(test.succeeding(done -> test.verify(() -> {
                    assertEquals(LOOPS, sendThreads.size(), "sends ran on " + sendThreads);
                    assertEquals(CONNECTIONS, sendOrder.size());
                    List<Integer> expected = IntStream.range(0, SENDS_PER_CONNECTION).boxed().toList();
                    sendOrder.values().forEach(order -> assertEquals(expected, order, "one connection's order"));
                    assertTrue(offHome.isEmpty(), "heartbeats ran off the home context on " + offHome);
                    test.completeNow();
                })));
        });
    }

    /** Pipelines every send of one connection (no waiting between them), then a heartbeat; all must succeed. */
    private static Future<Void> sendAll(RemotingClient client, String address) {
        List<Future<RemotingCommand>> replies = new ArrayList<>();
        for (int seq = 0; seq < SENDS_PER_CONNECTION; seq++) {
            replies.add(client.invoke(address, RemotingCommand.request(RequestCode.SEND_MESSAGE,
                Map.of("seq", Integer.toString(seq)), null)));
        }
        replies.add(client.invoke(address, RemotingCommand.request(RequestCode.HEART_BEAT)));
        return Future.all(replies).map(all -> {
            for (Future<RemotingCommand> reply : replies) {
                if (reply.result().code() != ResponseCode.SUCCESS) {
                    throw new IllegalStateException("reply " + reply.result().code());
                }
            }
            return null;
        });
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** More loops than Vert.x has is refused at start, naming the setting. */
    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void moreLoopsThanTheEventLoopPoolIsRefusedNamingTheSetting(Vertx vertx, VertxTestContext test) {
        Context home = vertx.getOrCreateContext();
        home.runOnContext(ignored -> test.verify(() -> {
            IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> ConnectionLoops.of(vertx, home, 1_000));
            assertTrue(refused.getMessage().contains("serverSelectorThreads"), refused.getMessage());
            test.completeNow();
        }));
    }
}
