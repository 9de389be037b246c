package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RawConnection;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Frames no RocketMQ client would send, written on raw sockets: each closes only its own connection. After each one
 * a request on a connection opened before it (the official client's, kept for the whole class) and one on a new raw
 * connection (encoded and decoded by the official {@code RemotingCommand}) are answered.
 *
 * <pre>
 *  offset  size  field
 *   0       4    frameLength     bytes after this field
 *   4       1    serializeType   0 JSON, 1 ROCKETMQ
 *   5       3    headerLength
 *   8       n    header, then the body
 * </pre>
 *
 * Every bad frame is padded to at least {@link #MIN_SNIFFED_BYTES}: Apache's server reads that many bytes before it
 * decides what a connection speaks (it sniffs for TLS and a proxy-protocol header), so shorter input would leave its
 * connection open and prove nothing about either server. Ours must close on the bad prefix alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MalformedFrameIT {

    /** Our NameServer's default maxFrameBytes (and Apache's frameMaxLength). */
    private static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;
    private static final int SERIALIZE_TYPE_JSON = 0;
    private static final int SERIALIZE_TYPE_ROCKETMQ = 1;
    private static final int MIN_SNIFFED_BYTES = 16;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final long REQUEST_TIMEOUT_MS = 5_000;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    /** Connected before any bad frame, and used after each: proves the other connections live on. */
    private static NettyRemotingClient longLivedClient;

    @BeforeAll
    static void startNameServerAndConnectALongLivedClient() throws Exception {
        nameServer = resources.nameServer(dir, NameServerSettings.defaults(dir));
        longLivedClient = OfficialClients.remotingClient();
        resources.closeClientLater(longLivedClient::shutdown);
        assertClusterInfoAnswered(longLivedClient);
    }

    @AfterEach
    void otherConnectionsAreStillAnswered() throws Exception {
        assertClusterInfoAnswered(longLivedClient);
        try (RawConnection newConnection = RawConnection.open(nameServer.listenPort(), CLOSE_TIMEOUT)) {
            RemotingCommand request = clusterInfoRequest();
            newConnection.write(request);
            RemotingCommand response = newConnection.readCommand();
            assertEquals(request.getOpaque(), response.getOpaque(), response.toString());
            assertEquals(ResponseCode.SUCCESS, response.getCode(), "GET_BROKER_CLUSTER_INFO: " + response);
        }
    }

    @Test
    void aZeroFrameLengthClosesTheConnection() throws Exception {
        assertClosesConnection(frameLength(0));
    }

    @Test
    void aNegativeFrameLengthClosesTheConnection() throws Exception {
        assertClosesConnection(frameLength(-1));
    }

    @Test
    void aFrameLengthOverMaxFrameBytesClosesTheConnectionBeforeTheFrameArrives() throws Exception {
        assertClosesConnection(frameLength(MAX_FRAME_BYTES + 1));
    }

    @Test
    void aHeaderLengthPastTheEndOfTheFrameClosesTheConnection() throws Exception {
        byte[] header = "{}".getBytes(StandardCharsets.UTF_8);
        int claimedHeaderLength = 1_000;
        assertClosesConnection(ByteBuffer.allocate(8 + header.length)
            .putInt(4 + header.length)
            .putInt(SERIALIZE_TYPE_JSON << 24 | claimedHeaderLength)
            .put(header)
            .array());
    }

    @Test
    void aJsonHeaderThatDoesNotParseClosesTheConnection() throws Exception {
        assertClosesConnection(frame(SERIALIZE_TYPE_JSON, "}{ not json at all".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aBinaryHeaderWhoseRemarkRunsPastTheHeaderClosesTheConnection() throws Exception {
        int claimedRemarkBytes = 1_000;
        byte[] header = ByteBuffer.allocate(17)
            .putShort((short) 106)      // code GET_BROKER_CLUSTER_INFO
            .put((byte) 0)              // language JAVA
            .putShort((short) 513)      // version 5.5.0
            .putInt(1)                  // opaque
            .putInt(0)                  // flag: request
            .putInt(claimedRemarkBytes) // remark length, but the header ends here
            .array();
        assertClosesConnection(frame(SERIALIZE_TYPE_ROCKETMQ, header));
    }

    @Test
    void anUnknownSerializeTypeClosesTheConnection() throws Exception {
        int unknownSerializeType = 7;
        assertClosesConnection(frame(unknownSerializeType, "{\"code\":106}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aHalfFrameFollowedByEndOfStreamClosesTheConnection() throws Exception {
        try (RawConnection connection = RawConnection.open(nameServer.listenPort(), CLOSE_TIMEOUT)) {
            byte[] whole = frame(SERIALIZE_TYPE_JSON, "{\"code\":106,\"flag\":0,\"opaque\":1}".getBytes(
                StandardCharsets.UTF_8));
            connection.write(Arrays.copyOf(whole, whole.length / 2));
            connection.shutdownOutput();

            assertTrue(connection.isClosedByServer(), "the server kept a half frame's connection open after EOF");
        }
    }

    private static void assertClosesConnection(byte[] badPrefix) throws Exception {
        byte[] bytes = Arrays.copyOf(badPrefix, Math.max(badPrefix.length, MIN_SNIFFED_BYTES));
        try (RawConnection connection = RawConnection.open(nameServer.listenPort(), CLOSE_TIMEOUT)) {
            connection.write(bytes);

            assertTrue(connection.isClosedByServer(), "the connection was still open " + CLOSE_TIMEOUT + " after "
                + bytes.length + " bad bytes");
        }
    }

    private static void assertClusterInfoAnswered(NettyRemotingClient client) throws Exception {
        RemotingCommand response = client.invokeSync(nameServer.address(), clusterInfoRequest(), REQUEST_TIMEOUT_MS);
        assertEquals(ResponseCode.SUCCESS, response.getCode(), "GET_BROKER_CLUSTER_INFO: " + response);
    }

    private static RemotingCommand clusterInfoRequest() {
        return RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CLUSTER_INFO, null);
    }

    private static byte[] frameLength(int frameLength) {
        return ByteBuffer.allocate(4).putInt(frameLength).array();
    }

    private static byte[] frame(int serializeType, byte[] header) {
        return ByteBuffer.allocate(8 + header.length)
            .putInt(4 + header.length)
            .putInt(serializeType << 24 | header.length)
            .put(header)
            .array();
    }
}
