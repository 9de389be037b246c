package io.vrmq.ceiling;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.store.format.RecordReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The ceiling over real sockets with our client: it routes topics to itself, keeps what is sent, returns it from a
 * pull in the stored-record layout, wakes a held pull with the next send, and refuses codes it does not serve.
 * (The official client's full run against it is scripts/bench-vs-rocketmq.sh with CEILING=1.)
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class CeilingVerticleIT {
    private static final long TIMEOUT_MS = 5_000;
    private static final String TOPIC = "CeilingTopic";

    private RemotingClient client;
    private String address;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        CeilingVerticle ceiling = new CeilingVerticle(CeilingOptions.parse(new String[] {"--port", "0"}));
        await(vertx.deployVerticle(ceiling));
        address = "127.0.0.1:" + ceiling.port();
        client = new RemotingClient(vertx, RemotingLimits.defaults());
    }

    @Test
    void everyTopicIsRoutedToTheCeilingWithItsCreatedQueueCount() throws Exception {
        RemotingCommand created = call(RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC,
            Map.of("topic", TOPIC, "readQueueNums", "3", "writeQueueNums", "3"), null));
        assertEquals(ResponseCode.SUCCESS, created.code(), created.remark());
        RemotingCommand routed = call(RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC,
            Map.of("topic", TOPIC), null));
        TopicRouteData route = new RemotingJson().decode(routed.body(), TopicRouteData.class);
        assertEquals(3, route.queueDatas().get(0).writeQueueNums());
        assertEquals(address, route.brokerDatas().get(0).brokerAddrs().get(0L));
    }

    @Test
    void aSentMessageIsPulledBackAsAStoredRecord() throws Exception {
        assertEquals("0", call(send("first")).ext("queueOffset"));
        assertEquals("1", call(send("second")).ext("queueOffset"));
        RemotingCommand pulled = call(pull(0, 0));
        assertEquals(ResponseCode.SUCCESS, pulled.code(), pulled.remark());
        assertEquals("2", pulled.ext("nextBeginOffset"));
        ByteBuffer records = ByteBuffer.wrap(pulled.body().getBytes());
        int second = RecordReader.totalSize(records, 0);
        assertEquals(TOPIC, RecordReader.topic(records, 0));
        assertEquals(1, RecordReader.queueOffset(records, second));
        assertEquals("second", body(records, second));
        assertEquals("UNIQ_KEY\u0001k1", RecordReader.properties(records, 0));
    }

    @Test
    void aHeldPullIsAnsweredByTheNextSend() throws Exception {
        Future<RemotingCommand> held = client.invoke(address, pull(0, 1 << 1), TIMEOUT_MS);
        // The pull reaches the ceiling before the send: both go over the one connection, in order.
        call(send("woken"));
        RemotingCommand pulled = await(held);
        assertEquals(ResponseCode.SUCCESS, pulled.code(), pulled.remark());
        assertEquals("woken", body(ByteBuffer.wrap(pulled.body().getBytes()), 0));
    }

    @Test
    void aPullWithNothingAndNoSuspendFlagIsNotFound() throws Exception {
        assertEquals(ResponseCode.PULL_NOT_FOUND, call(pull(0, 0)).code());
    }

    @Test
    void anUnknownCodeIsNotSupported() throws Exception {
        RemotingCommand answer = call(RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO));
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, answer.code());
        assertFalse(answer.remark() == null || answer.remark().isEmpty());
    }

    private static RemotingCommand send(String body) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, Map.of("a", "PG", "b", TOPIC, "e", "0",
            "f", "0", "g", "1", "h", "0", "i", "UNIQ_KEY\u0001k1", "j", "0"),
            Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static RemotingCommand pull(long offset, int sysFlag) {
        return RemotingCommand.request(RequestCode.PULL_MESSAGE, Map.of("consumerGroup", "CG", "topic", TOPIC,
            "queueId", "0", "queueOffset", Long.toString(offset), "maxMsgNums", "32", "sysFlag",
            Integer.toString(sysFlag), "commitOffset", "0", "suspendTimeoutMillis", "4000", "subVersion", "0"), null);
    }

    private static String body(ByteBuffer records, int position) {
        byte[] bytes = new byte[RecordReader.bodyLength(records, position)];
        records.get(RecordReader.bodyPosition(records, position), bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private RemotingCommand call(RemotingCommand request) throws Exception {
        return await(client.invoke(address, request, TIMEOUT_MS));
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }
}
