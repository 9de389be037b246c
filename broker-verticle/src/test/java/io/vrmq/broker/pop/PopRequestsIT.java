package io.vrmq.broker.pop;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Base64;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The other POP requests and the answers to bad ones, against one broker: RocketMQ's codes for a bad header, topic,
 * queue, offset or receipt (and the broker keeps serving), PEEK, NOTIFICATION (held and woken), POLLING_INFO,
 * BATCH_ACK's bit set, QUERY_ASSIGNMENT in POP mode, and a clean restart that keeps what is in flight.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PopRequestsIT {
    private static final long INVISIBLE_MS = 1_000;

    @TempDir
    static Path dir;
    private static Vertx vertx;
    private static PopTestBroker broker;

    @BeforeAll
    static void startBroker() {
        vertx = Vertx.vertx();
        broker = PopTestBroker.start(vertx, dir).await();
    }

    @AfterAll
    static void stopBroker() {
        broker.stop().await();
        vertx.close().await();
    }

    @Test
    void badPopRequestsGetRocketMqsCodesAndTheBrokerKeepsServing() {
        String topic = "PopBad";
        broker.send(topic, 0, 1).await();
        assertEquals(ResponseCode.INVALID_PARAMETER, code(popWith(topic, "maxMsgNums", "33")));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, code(popWith("NoSuchTopic", "queueId", "0")));
        assertEquals(ResponseCode.INVALID_PARAMETER, code(popWith(topic, "queueId", "99")));
        assertEquals(ResponseCode.POLLING_TIMEOUT, code(popWith(topic, "bornTime",
            Long.toString(System.currentTimeMillis() - 60_000))), "a pop long past its poll time");
        Map<String, String> missing = broker.popHeader(topic, -1, 1, INVISIBLE_MS, 0, false);
        missing.remove("invisibleTime");
        assertEquals(ResponseCode.SYSTEM_ERROR, code(broker.popRaw(missing).await()), "a missing required field");

        PopTestBroker.Popped popped = broker.pop(topic, -1, 1, 60_000, 0, false).await();
        assertEquals(1, popped.messages().size());
        PopTestBroker.PoppedMessage message = popped.messages().get(0);
        Map<String, String> ack = ackHeader(message);
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, code(ack(with(ack, "queueId", "7"))));
        assertEquals(ResponseCode.NO_MESSAGE, code(ack(with(ack, "offset", "99"))));
        assertEquals(ResponseCode.SYSTEM_ERROR, code(ack(with(ack, "extraInfo", "x y"))));
        Map<String, String> change = with(ack, "invisibleTime", "1000");
        assertEquals(ResponseCode.NO_MESSAGE, code(call(RequestCode.CHANGE_MESSAGE_INVISIBLETIME,
            with(change, "offset", "1"), null)), "CHANGE needs offset < max");
        assertEquals(ResponseCode.INVALID_PARAMETER, code(call(RequestCode.CHANGE_MESSAGE_INVISIBLETIME,
            with(change, "invisibleTime", "-1"), null)));
        assertEquals(ResponseCode.NO_MESSAGE, code(call(RequestCode.BATCH_ACK_MESSAGE, Map.of(), null)));
        assertEquals(ResponseCode.SUCCESS, code(broker.ack(message).await()), "the good ack after the bad ones");
    }

    @Test
    void peekShowsWithoutTakingAndNotificationIsHeldUntilAMessageArrives() {
        String topic = "PopPeek";
        broker.send(topic, 0, 2).await();
        Map<String, String> peek = Map.of("topic", topic, "queueId", "-1", "maxMsgNums", "32", "consumerGroup",
            PopTestBroker.GROUP);
        RemotingCommand peeked = call(RequestCode.PEEK_MESSAGE, peek, null);
        assertEquals(ResponseCode.SUCCESS, peeked.code());
        assertEquals(2, TestBrokerRequests.decodeAll(peeked.body()).size());
        assertEquals(2, broker.pop(topic, -1, 32, 60_000, 0, false).await().messages().size(),
            "a peek takes nothing");
        assertEquals(ResponseCode.PULL_NOT_FOUND, call(RequestCode.PEEK_MESSAGE, peek, null).code());

        Map<String, String> notification = new HashMap<>(Map.of("consumerGroup", PopTestBroker.GROUP, "topic", topic,
            "queueId", "-1", "pollTime", "20000", "bornTime", Long.toString(System.currentTimeMillis())));
        var held = broker.broker().invoke(RequestCode.NOTIFICATION, notification, null);
        broker.broker().poll(() -> broker.broker().invoke(RequestCode.POLLING_INFO, Map.of("consumerGroup",
            PopTestBroker.GROUP, "topic", topic, "queueId", "-1"), null), info -> "0".equals(info.ext("pollingNum")),
            2_000).await();
        assertTrue(!held.isComplete(), "a notification with nothing to pop is held");
        broker.send(topic, 1, 1).await();
        RemotingCommand woken = held.await();
        assertEquals(ResponseCode.SUCCESS, woken.code());
        assertEquals("true", woken.ext("hasMsg"));
    }

    @Test
    void pollingInfoCountsHeldPops() {
        String topic = "PopInfo";
        broker.send(topic, 0, 1).await();
        broker.pop(topic, -1, 32, 60_000, 0, false).await();
        var held = broker.pop(topic, -1, 1, 60_000, 2_000, false);
        Map<String, String> info = Map.of("consumerGroup", PopTestBroker.GROUP, "topic", topic, "queueId", "-1");
        RemotingCommand answer;
        try {
            answer = broker.broker().poll(() -> broker.broker().invoke(RequestCode.POLLING_INFO, info, null),
                response -> "1".equals(response.ext("pollingNum")), 1_500).await();
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError("held: " + (held.isComplete() ? held.result().response() : "pending"), e);
        }
        assertEquals(ResponseCode.SUCCESS, answer.code());
        assertEquals(ResponseCode.POLLING_TIMEOUT, held.await().code(), "answered at the end of its poll time");
    }

    @Test
    void aBatchAckAcksTheOffsetsOfItsBitSet() {
        String topic = "PopBatch";
        broker.send(topic, 0, 3).await();
        PopTestBroker.Popped popped = broker.pop(topic, 0, 32, INVISIBLE_MS, 0, false).await();
        assertEquals(List.of("m0", "m1", "m2"), popped.bodies());
        ExtraInfo receipt = ExtraInfo.parse(popped.messages().get(0).receipt());
        BitSet bits = new BitSet();
        bits.set(0);
        bits.set(2);
        JsonObject entry = new JsonObject().put("c", PopTestBroker.GROUP).put("t", topic).put("r", "0")
            .put("so", receipt.ckStartOffset()).put("q", 0).put("rq", receipt.reviveQueueId())
            .put("pt", receipt.popTime()).put("it", receipt.invisibleTime())
            .put("b", Base64.getEncoder().encodeToString(bits.toByteArray()));
        JsonObject body = new JsonObject().put("brokerName", "broker-a").put("acks", new JsonArray().add(entry));
        assertEquals(ResponseCode.SUCCESS, code(call(RequestCode.BATCH_ACK_MESSAGE, Map.of(), body.toBuffer())));
        PopTestBroker.Popped back = broker.broker().poll(() -> broker.pop(topic, -1, 32, INVISIBLE_MS, 500, false),
            again -> !again.messages().isEmpty(), 10_000).await();
        assertEquals(List.of("m1"), back.bodies(), "only the message outside the bit set comes back");
        broker.ack(back.messages().get(0)).await();
    }

    @Test
    void queryAssignmentGivesAPopGroupTheWholeTopicPerBroker() {
        String topic = "PopAssign";
        broker.send(topic, 0, 1).await();
        String clientId = "127.0.0.1@assign";
        TestBrokerRequests.requireSuccess(call(RequestCode.HEART_BEAT, Map.of(), Buffer.buffer(TestBrokerRequests
            .heartbeatBody(clientId, PopTestBroker.GROUP, topic))));
        JsonObject mode = new JsonObject().put("topic", topic).put("consumerGroup", PopTestBroker.GROUP)
            .put("mode", "POP").put("popShareQueueNum", 0);
        assertEquals(ResponseCode.SUCCESS, code(call(RequestCode.SET_MESSAGE_REQUEST_MODE, Map.of(),
            mode.toBuffer())));
        assertEquals(ResponseCode.NO_PERMISSION, code(call(RequestCode.SET_MESSAGE_REQUEST_MODE, Map.of(),
            mode.copy().put("topic", "%RETRY%" + PopTestBroker.GROUP).toBuffer())));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, code(call(RequestCode.SET_MESSAGE_REQUEST_MODE, Map.of(),
            mode.copy().put("topic", "NoSuchTopic").toBuffer())));

        JsonObject query = new JsonObject().put("topic", topic).put("consumerGroup", PopTestBroker.GROUP)
            .put("clientId", clientId).put("messageModel", "CLUSTERING").put("strategyName", "AVG");
        RemotingCommand assigned = TestBrokerRequests.requireSuccess(call(RequestCode.QUERY_ASSIGNMENT, Map.of(),
            query.toBuffer()));
        JsonArray assignments = new JsonObject(assigned.body()).getJsonArray("messageQueueAssignments");
        assertEquals(1, assignments.size(), assignments.encode());
        JsonObject only = assignments.getJsonObject(0);
        assertEquals("POP", only.getString("mode"));
        assertEquals(-1, only.getJsonObject("messageQueue").getInteger("queueId"));

        RemotingCommand pull = TestBrokerRequests.requireSuccess(call(RequestCode.QUERY_ASSIGNMENT, Map.of(),
            query.copy().put("consumerGroup", "PULL_GROUP").toBuffer()));
        assertTrue(new JsonObject(pull.body()).getJsonArray("messageQueueAssignments") == null,
            "a group with no live client gets no assignment");
    }

    @Test
    void aCleanRestartKeepsWhatIsInFlight() {
        String topic = "PopRestart";
        broker.send(topic, 0, 2).await();
        PopTestBroker.Popped popped = broker.pop(topic, -1, 32, 2 * INVISIBLE_MS, 0, false).await();
        assertEquals(2, popped.messages().size());
        broker.ack(popped.messages().get(0)).await();
        broker.restart().await();
        PopTestBroker.Popped back = broker.broker().poll(() -> broker.pop(topic, -1, 32, INVISIBLE_MS, 500, false),
            again -> !again.messages().isEmpty(), 10_000).await();
        assertEquals(List.of("m1"), back.bodies(), "the unacked one, once");
        broker.ack(back.messages().get(0)).await();
    }

    private static RemotingCommand popWith(String topic, String field, String value) {
        Map<String, String> header = broker.popHeader(topic, -1, 1, INVISIBLE_MS, 0, false);
        header.put(field, value);
        return broker.popRaw(header).await();
    }

    private static Map<String, String> ackHeader(PopTestBroker.PoppedMessage message) {
        ExtraInfo receipt = ExtraInfo.parse(message.receipt());
        return Map.of("consumerGroup", PopTestBroker.GROUP, "topic", message.message().topic(), "queueId",
            Integer.toString(receipt.queueId()), "extraInfo", message.receipt(), "offset",
            Long.toString(receipt.queueOffset()));
    }

    private static Map<String, String> with(Map<String, String> header, String field, String value) {
        Map<String, String> changed = new HashMap<>(header);
        changed.put(field, value);
        return changed;
    }

    private static RemotingCommand ack(Map<String, String> header) {
        return call(RequestCode.ACK_MESSAGE, header, null);
    }

    private static RemotingCommand call(int code, Map<String, String> header, Buffer body) {
        return broker.broker().invoke(code, header, body).await();
    }

    private static int code(RemotingCommand response) {
        return response.code();
    }
}
