package io.vrmq.remoting.launch;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The base options put Vert.x on the native epoll transport we ship (this suite runs on Linux x86_64 or aarch64, the
 * two we ship it for), or on NIO when asked; our server and client carry requests, small and large answers, on
 * either, and the start line names the transport.
 */
class NativeTransportIT {
    private static final String HOST = "127.0.0.1";
    private static final int ECHO = 9_201;
    private static final int REQUESTS = 500;
    private static final int LARGE_BODY_BYTES = 256 * 1024;

    private Vertx vertx;

    @AfterEach
    void close() throws Exception {
        if (vertx != null) {
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theBaseOptionsRunOurServerAndClientOnEpoll() throws Exception {
        vertx = Vertx.vertx(RoleLauncher.baseOptions(true));
        assertTrue(vertx.isNativeTransportEnabled(), "native transport unavailable: "
            + vertx.unavailableNativeTransportCause());
        assertEquals("transport: epoll (native, useEpollNativeSelector true)", NativeTransport.describe(vertx, true));
        echoSmallAndLargeBodies(vertx);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void turnedOffTheyRunOnNio() throws Exception {
        vertx = Vertx.vertx(RoleLauncher.applyBaseOptions(new VertxOptions().setPreferNativeTransport(true), false));
        assertFalse(vertx.isNativeTransportEnabled());
        assertEquals("transport: NIO (useEpollNativeSelector false)", NativeTransport.describe(vertx, false));
        echoSmallAndLargeBodies(vertx);
    }

    /** Many requests at once, every answer echoing its request's body, some large enough to back the socket up. */
    private static void echoSmallAndLargeBodies(Vertx vertx) throws Exception {
        RemotingLimits limits = new RemotingLimits(4 * 1024 * 1024, 16 * 1024, 10_000L, 4_096, 256);
        ProcessorTable table = ProcessorTable.builder().register(ECHO, (connection, request) ->
            Future.succeededFuture(RemotingCommand.success(request, Map.of("n", request.ext("n")), request.body())))
            .build();
        RemotingServer server = new RemotingServer(vertx, new NetServerOptions().setHost(HOST), limits, 4,
            new AtomicInteger(), table, RemotingObserver.NONE);
        int port = server.listen(HOST, 0).await(10, TimeUnit.SECONDS);
        RemotingClient client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000), limits,
            ProcessorTable.empty(), RemotingObserver.NONE);
        List<Future<RemotingCommand>> calls = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            byte[] body = new byte[i % 10 == 0 ? LARGE_BODY_BYTES : 100];
            body[body.length - 1] = (byte) i;
            bodies.add(body);
            calls.add(client.invoke(HOST + ":" + port, RemotingCommand.request(ECHO, Map.of("n", Integer.toString(i)),
                Buffer.buffer(body))));
        }
        Future.all(calls).await(20, TimeUnit.SECONDS);
        for (int i = 0; i < REQUESTS; i++) {
            RemotingCommand answer = calls.get(i).result();
            assertEquals(ResponseCode.SUCCESS, answer.code());
            assertEquals(Integer.toString(i), answer.ext("n"));
            assertArrayEquals(bodies.get(i), answer.body().getBytes(), "answer " + i);
        }
    }
}
