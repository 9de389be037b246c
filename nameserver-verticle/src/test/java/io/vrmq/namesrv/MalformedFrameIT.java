package io.vrmq.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames the NameServer cannot trust, written on raw sockets: each closes its own connection (the socket's close
 * handler fires without any reply), and a RemotingClient on another connection, opened before, is answered right
 * after.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class MalformedFrameIT {
    private static final int MAX_FRAME_BYTES = 1_024;
    private static final int MAX_HEADER_BYTES = 512;
    private static final int JSON_TYPE = 0;
    private static final int UNKNOWN_SERIALIZE_TYPE = 7;

    @Test
    void aZeroFrameLengthClosesOnlyItsConnection(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        assertClosesOnlyItsConnection(vertx, test, dir, Buffer.buffer().appendInt(0));
    }

    @Test
    void aNegativeFrameLengthClosesOnlyItsConnection(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        assertClosesOnlyItsConnection(vertx, test, dir, Buffer.buffer().appendInt(-1));
    }

    @Test
    void aFrameLengthAboveMaxFrameBytesClosesOnlyItsConnection(Vertx vertx, VertxTestContext test,
                                                             @TempDir Path dir) {
        assertClosesOnlyItsConnection(vertx, test, dir, Buffer.buffer().appendInt(MAX_FRAME_BYTES + 1));
    }

    @Test
    void aHeaderLengthPastTheFrameEndClosesOnlyItsConnection(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        Buffer frame = Buffer.buffer().appendInt(4 + 2).appendInt(headerWord(JSON_TYPE, 100))
            .appendString("{}");
        assertClosesOnlyItsConnection(vertx, test, dir, frame);
    }

    @Test
    void aHeaderLengthAboveMaxHeaderBytesClosesOnlyItsConnection(Vertx vertx, VertxTestContext test,
                                                               @TempDir Path dir) {
        int headerLength = MAX_HEADER_BYTES + 1;
        Buffer frame = Buffer.buffer().appendInt(4 + headerLength).appendInt(headerWord(JSON_TYPE, headerLength))
            .appendBytes(new byte[headerLength]);
        assertClosesOnlyItsConnection(vertx, test, dir, frame);
    }

    @Test
    void aJunkJsonHeaderClosesOnlyItsConnection(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        assertClosesOnlyItsConnection(vertx, test, dir, frameWithHeader(JSON_TYPE, "{\"code\":105,,junk"));
    }

    @Test
    void aJsonHeaderThatIsNotAnObjectClosesOnlyItsConnection(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        assertClosesOnlyItsConnection(vertx, test, dir, frameWithHeader(JSON_TYPE, "[105]"));
    }

    @Test
    void anUnknownSerializeTypeClosesOnlyItsConnection(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        assertClosesOnlyItsConnection(vertx, test, dir, frameWithHeader(UNKNOWN_SERIALIZE_TYPE, "{\"code\":105}"));
    }

    @Test
    void aHalfFrameThenCloseLeavesTheServerServing(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient other = new RemotingClient(vertx, RemotingLimits.defaults());
        NetClient raw = vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000));
        Buffer half = Buffer.buffer().appendInt(100).appendInt(headerWord(JSON_TYPE, 50)).appendString("{\"co");
        TestNameServer.start(vertx, smallLimits(dir))
            .compose(server -> answered(other, server)
                .compose(ready -> raw.connect(server.remotingPort(), TestNameServer.HOST))
                .compose(socket -> socket.write(half).compose(written -> socket.close()))
                .compose(closed -> answered(other, server)))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aRejectedFrameIsCountedInTheMetrics(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        NetClient raw = vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000));
        WebClient http = WebClient.create(vertx);
        TestNameServer.start(vertx, smallLimits(dir))
            .compose(server -> raw.connect(server.remotingPort(), TestNameServer.HOST)
                .compose(socket -> closedByServerAfter(socket, Buffer.buffer().appendInt(-1)))
                .compose(closed -> http.get(server.adminPort(), TestNameServer.HOST, "/metrics").send()))
            .map(response -> {
                assertTrue(response.bodyAsString().contains("mq_namesrv_frames_rejected_total 1.0"),
                    response.bodyAsString());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static void assertClosesOnlyItsConnection(Vertx vertx, VertxTestContext test, Path dir, Buffer bytes) {
        RemotingClient other = new RemotingClient(vertx, RemotingLimits.defaults());
        NetClient raw = vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000));
        TestNameServer.start(vertx, smallLimits(dir))
            .compose(server -> answered(other, server)
                .compose(ready -> raw.connect(server.remotingPort(), TestNameServer.HOST))
                .compose(socket -> closedByServerAfter(socket, bytes))
                .compose(received -> {
                    assertEquals(0, received.length(), "no reply to a malformed frame");
                    return answered(other, server);
                }))
            .onComplete(test.succeedingThenComplete());
    }

    /** Writes {@code bytes} and completes with whatever came back once the server has closed the socket. */
    private static Future<Buffer> closedByServerAfter(NetSocket socket, Buffer bytes) {
        Buffer received = Buffer.buffer();
        Promise<Buffer> closed = Promise.promise();
        socket.handler(received::appendBuffer);
        socket.closeHandler(ignored -> closed.tryComplete(received));
        return socket.write(bytes).compose(written -> closed.future());
    }

    private static Future<Void> answered(RemotingClient client, TestNameServer server) {
        return client.invoke(server.address(), RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                assertTrue(response.hasBody());
                return null;
            });
    }

    private static JsonObject smallLimits(Path dir) {
        return TestNameServer.config(dir)
            .put("maxFrameBytes", MAX_FRAME_BYTES)
            .put("maxHeaderBytes", MAX_HEADER_BYTES);
    }

    private static Buffer frameWithHeader(int serializeType, String header) {
        byte[] bytes = header.getBytes(StandardCharsets.UTF_8);
        return Buffer.buffer().appendInt(4 + bytes.length).appendInt(headerWord(serializeType, bytes.length))
            .appendBytes(bytes);
    }

    private static int headerWord(int serializeType, int headerLength) {
        return (serializeType << 24) | headerLength;
    }
}
