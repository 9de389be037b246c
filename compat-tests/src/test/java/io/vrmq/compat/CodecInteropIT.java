package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.HandRegisteredBroker;
import io.vrmq.compat.support.NameServerKind;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RawConnection;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetKVConfigRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetKVConfigResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.PutKVConfigRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our codec against the official one over the wire: requests encoded by the official {@code RemotingCommand} (JSON
 * and ROCKETMQ binary headers) are decoded by our NameServer, and its responses decode with the official decoder.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CodecInteropIT {

    private static final String TOPIC = "CompatCodecTopic";
    private static final String BROKER = "broker-codec";
    private static final long REQUEST_TIMEOUT_MS = 5_000;
    private static final int UNKNOWN_REQUEST_CODE = 54_321;
    private static final Duration RAW_READ_TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static NettyRemotingClient client;

    @BeforeAll
    static void startNameServerWithARegisteredTopic() throws Exception {
        nameServer = resources.nameServer(dir, NameServerSettings.defaults(dir));
        resources.closeClientLater(HandRegisteredBroker.register(nameServer.address(), "CompatCodecCluster", BROKER,
            List.of(TOPIC)));
        client = OfficialClients.remotingClient();
        resources.closeClientLater(client::shutdown);
    }

    @Test
    void aRequestWithAJsonHeaderIsAnsweredAndTheResponseDecodes() throws Exception {
        assertRouteAnswered(routeRequest(SerializeType.JSON));
    }

    @Test
    void aRequestWithARocketmqBinaryHeaderIsAnsweredAndTheResponseDecodes() throws Exception {
        assertRouteAnswered(routeRequest(SerializeType.ROCKETMQ));
    }

    /** Ours answers in the request's header type; Apache's answers in its own configured type (JSON by default). */
    @Test
    void ourResponseToARocketmqBinaryRequestHasARocketmqBinaryHeader() throws Exception {
        Assumptions.assumeTrue(NameServerKind.selected() == NameServerKind.VRMQ,
            "Apache's NameServer answers in its own serialize type, whatever the request used");
        try (RawConnection connection = RawConnection.open(nameServer.listenPort(), RAW_READ_TIMEOUT)) {
            RemotingCommand request = routeRequest(SerializeType.ROCKETMQ);
            connection.write(request);

            byte[] frame = connection.readFrame();

            assertEquals(SerializeType.ROCKETMQ.getCode(), frame[0], "serialize type byte of the response");
            assertEquals(request.getOpaque(), RemotingCommand.decode(ByteBuffer.wrap(frame)).getOpaque());
        }
    }

    @Test
    void anUnknownRequestCodeIsAnsweredWithCodeThreeAndARemarkNamingTheCode() throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(UNKNOWN_REQUEST_CODE, null);

        RemotingCommand response = client.invokeSync(nameServer.address(), request, REQUEST_TIMEOUT_MS);

        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, response.getCode(), response.toString());
        assertNotNull(response.getRemark(), "remark of " + response);
        assertTrue(response.getRemark().contains(Integer.toString(UNKNOWN_REQUEST_CODE)), response.getRemark());
    }

    @Test
    void aOnewayRequestGetsNoResponseAndTheConnectionStaysUsable() throws Exception {
        String namespace = "compat-oneway";
        try (RawConnection connection = RawConnection.open(nameServer.listenPort(), RAW_READ_TIMEOUT)) {
            RemotingCommand oneway = putKvConfig(namespace, "key", "value");
            oneway.markOnewayRPC();
            connection.write(oneway);

            // Every frame read must answer the request just sent: a stray reply to the oneway would show up here.
            // The official server may run the oneway put after a following get, so ask until the value is there.
            String value = null;
            for (int attempt = 0; attempt < 20 && value == null; attempt++) {
                RemotingCommand get = getKvConfig(namespace, "key");
                connection.write(get);
                RemotingCommand response = connection.readCommand();
                assertEquals(get.getOpaque(), response.getOpaque(), "a frame that answers no sent request: "
                    + response + " (the oneway had opaque " + oneway.getOpaque() + ")");
                if (response.getCode() == ResponseCode.SUCCESS) {
                    value = response.decodeCommandCustomHeader(GetKVConfigResponseHeader.class).getValue();
                }
            }
            assertEquals("value", value, "the oneway PUT_KV_CONFIG never took effect");
        }
    }

    private static RemotingCommand routeRequest(SerializeType serializeType) {
        GetRouteInfoRequestHeader header = new GetRouteInfoRequestHeader();
        header.setTopic(TOPIC);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, header);
        request.setSerializeTypeCurrentRPC(serializeType);
        return request;
    }

    private static void assertRouteAnswered(RemotingCommand request) throws Exception {
        RemotingCommand response = client.invokeSync(nameServer.address(), request, REQUEST_TIMEOUT_MS);

        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.toString());
        assertEquals(request.getOpaque(), response.getOpaque());
        assertTrue(response.isResponseType(), "flag " + response.getFlag());
        TopicRouteData route = TopicRouteData.decode(response.getBody(), TopicRouteData.class);
        assertNotNull(route, "route body " + new String(response.getBody(), StandardCharsets.UTF_8));
        QueueData queueData = route.getQueueDatas().get(0);
        assertEquals(BROKER, queueData.getBrokerName());
        assertEquals(4, queueData.getWriteQueueNums());
        assertEquals(BROKER, route.getBrokerDatas().get(0).getBrokerName());
        assertNotNull(route.getBrokerDatas().get(0).getBrokerAddrs().get(0L), "master address in " + route);
    }

    private static RemotingCommand putKvConfig(String namespace, String key, String value) {
        PutKVConfigRequestHeader header = new PutKVConfigRequestHeader();
        header.setNamespace(namespace);
        header.setKey(key);
        header.setValue(value);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.PUT_KV_CONFIG, header);
        request.makeCustomHeaderToNet();
        return request;
    }

    private static RemotingCommand getKvConfig(String namespace, String key) {
        GetKVConfigRequestHeader header = new GetKVConfigRequestHeader();
        header.setNamespace(namespace);
        header.setKey(key);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.GET_KV_CONFIG, header);
        request.makeCustomHeaderToNet();
        return request;
    }
}
