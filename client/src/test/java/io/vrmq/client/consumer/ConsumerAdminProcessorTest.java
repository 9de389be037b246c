package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.message.TestRecords;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CONSUME_MESSAGE_DIRECTLY (309) answered without a network: the processor alone, with a recording listener. */
class ConsumerAdminProcessorTest {
    private static final String GROUP = "CG-direct";
    private final List<ReceivedMessage> seen = new ArrayList<>();
    private final ConsumerAdminProcessor processor = new ConsumerAdminProcessor(new RemotingJson(), GROUP,
        4 * 1024 * 1024, null, () -> {
            throw new IllegalStateException("running info not asked for here");
        }, DirectConsumer.concurrently((messages, queue) -> {
            seen.addAll(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        }, System::currentTimeMillis));

    @Test
    void aRetriedMessageReachesTheListenerUnderItsOriginalTopicAndTheAnswerIsCrSuccess() {
        String properties = MessageProperties.format(Map.of(MessageConst.RETRY_TOPIC, "TopicOriginal"));
        RemotingCommand request = consumeDirectly(GROUP, TestRecords.record("%RETRY%" + GROUP, 0, 3L, 99L, 0,
            "hello".getBytes(StandardCharsets.UTF_8), properties, 1));

        RemotingCommand answer = processor.process(null, request).result();

        assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
        assertTrue(answer.body().toString(StandardCharsets.UTF_8).contains("\"consumeResult\":\"CR_SUCCESS\""));
        assertEquals(1, seen.size());
        assertEquals("TopicOriginal", seen.get(0).topic());
        assertEquals("broker-a", seen.get(0).brokerName());
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), seen.get(0).body());
    }

    @Test
    void aRequestForAnotherGroupIsRefusedAsTheOfficialClientRefusesIt() {
        RemotingCommand request = consumeDirectly("CG-other", TestRecords.record("T", 0, 0L, 1L, 0, new byte[] {1},
            "", 0));

        RemotingCommand answer = processor.process(null, request).result();

        assertEquals(ResponseCode.SYSTEM_ERROR, answer.code());
        assertEquals("The Consumer Group <CG-other> not exist in this consumer", answer.remark());
        assertTrue(seen.isEmpty());
    }

    private static RemotingCommand consumeDirectly(String group, io.vertx.core.buffer.Buffer record) {
        return RemotingCommand.request(RequestCode.CONSUME_MESSAGE_DIRECTLY, Map.of("consumerGroup", group,
            "clientId", "127.0.0.1@1", "msgId", "ID", "brokerName", "broker-a", "topic", "T"), record);
    }
}
