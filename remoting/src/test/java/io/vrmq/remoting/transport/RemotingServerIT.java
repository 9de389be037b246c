package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.CommandCodec;
import io.vrmq.remoting.protocol.Frame;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vrmq.remoting.transport.TestServer.ECHO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The accepting side at its edge: frames it cannot trust close only their own connection; maxConnections holds. */
@ExtendWith(VertxExtension.class)
class RemotingServerIT {

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void anUnknownSerializeTypeClosesOnlyItsConnection(Vertx vertx, VertxTestContext test) {
        Buffer garbage = Buffer.buffer().appendInt(8).appendInt((5 << 24) | 4).appendString("{}{}");

        garbageClosesOnlyItsConnection(vertx, garbage).onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aFrameLengthOverMaxFrameBytesClosesOnlyItsConnection(Vertx vertx, VertxTestContext test) {
        Buffer garbage = Buffer.buffer().appendInt(TestServer.LIMITS.maxFrameBytes() + 1).appendString("more");

        garbageClosesOnlyItsConnection(vertx, garbage).onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aNegativeFrameLengthClosesOnlyItsConnection(Vertx vertx, VertxTestContext test) {
        garbageClosesOnlyItsConnection(vertx, Buffer.buffer().appendInt(-1)).onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aJsonHeaderThatDoesNotParseClosesOnlyItsConnection(Vertx vertx, VertxTestContext test) {
        byte[] header = "{\"code\":34,\"opaque\":".getBytes(StandardCharsets.UTF_8);
        Buffer garbage = Buffer.buffer().appendInt(Frame.HEADER_WORD_BYTES + header.length)
            .appendInt(Frame.headerWord(SerializeType.JSON, header.length)).appendBytes(header);

        garbageClosesOnlyItsConnection(vertx, garbage).onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aHeaderOverMaxHeaderBytesClosesOnlyItsConnection(Vertx vertx, VertxTestContext test) {
        String big = "x".repeat(TestServer.LIMITS.maxHeaderBytes());
        Buffer garbage = CommandCodec.encode(RemotingCommand.request(ECHO, Map.of("big", big), null));

        garbageClosesOnlyItsConnection(vertx, garbage).onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aRejectedFrameIsReportedToTheObserverWithItsNumbers(Vertx vertx, VertxTestContext test) {
        List<String> rejected = new CopyOnWriteArrayList<>();
        RemotingObserver observer = new RemotingObserver() {
            @Override
            public void frameRejected(String reason) {
                rejected.add(reason);
            }
        };
        RemotingServer server = new RemotingServer(vertx, new NetServerOptions().setHost(TestServer.HOST),
            TestServer.LIMITS, TestServer.DEFAULT_MAX_CONNECTIONS, new AtomicInteger(),
            TestServer.standardProcessors().build(), observer);

        server.listen(TestServer.HOST, 0)
            .compose(port -> RawSocket.open(vertx, port))
            .compose(socket -> socket.send(Buffer.buffer().appendInt(TestServer.LIMITS.maxFrameBytes() + 1))
                .compose(sent -> socket.closed()))
            .map(closed -> {
                assertEquals(1, rejected.size(), rejected.toString());
                assertTrue(rejected.get(0).contains(String.valueOf(TestServer.LIMITS.maxFrameBytes() + 1)),
                    rejected.get(0));
                return closed;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aConnectionBeyondMaxConnectionsIsClosedWhileTheOthersAreServed(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build(), 1)
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(ECHO))
                .compose(served -> RawSocket.open(vertx, server.port()))
                .compose(extra -> extra.closed())
                .compose(refused -> client.invoke(server.address(), RemotingCommand.request(ECHO)))
                .map(response -> {
                    assertEquals(ResponseCode.SUCCESS, response.code());
                    assertEquals(1, server.server().connectionCount());
                    return response;
                }))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * A client is connected and served; a raw socket sends {@code garbage} and is closed without a reply; the first
     * client's connection is still open and served, and a new client is served too.
     */
    private static Future<Void> garbageClosesOnlyItsConnection(Vertx vertx, Buffer garbage) {
        RemotingClient client = TestServer.client(vertx);
        RemotingClient laterClient = TestServer.client(vertx);
        return TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address())
                .compose(good -> good.invoke(RemotingCommand.request(ECHO), 5_000)
                    .compose(served -> RawSocket.open(vertx, server.port()))
                    .compose(bad -> bad.send(garbage)
                        .compose(sent -> bad.closed())
                        .map(closed -> {
                            assertEquals(0, bad.receivedCount(), "no reply to an untrusted frame");
                            return closed;
                        }))
                    .compose(closed -> good.invoke(RemotingCommand.request(ECHO), 5_000))
                    .map(response -> {
                        assertEquals(ResponseCode.SUCCESS, response.code());
                        assertFalse(good.isClosed());
                        return response;
                    }))
                .compose(ignored -> laterClient.invoke(server.address(), RemotingCommand.request(ECHO))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                return null;
            });
    }
}
