package io.vrmq.compat.feature;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.RequestCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.utils.MessageUtil;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Request-reply through our broker with the official 5.5.0 client: {@code producer.request(...)} (sync, async, with
 * a queue selector) answered by a push consumer that replies with {@code MessageUtil.createReplyMessage}; the broker
 * pushes the reply (PUSH_REPLY_MESSAGE_TO_CLIENT) to the requester found by its client id. A reply for a requester
 * that is not connected gets RocketMQ's SYSTEM_ERROR; a request nobody answers times out on the client as in RocketMQ.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RequestReplyIT {
    private static final long REQUEST_TIMEOUT_MS = 15_000;
    private static final int SEND_TIMEOUT_MS = 15_000;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQProducer requester;
    private static DefaultMQProducer replier;
    private static String requestTopic;

    @BeforeAll
    static void startBrokerRequesterAndResponder() throws Exception {
        bed = TestBed.start(resources, brokers, dir, "broker-reply");
        requester = bed.clients().producer(uniqueName("requester"));
        requester.setSendMsgTimeout(SEND_TIMEOUT_MS);
        replier = bed.clients().producer(uniqueName("replier"));
        replier.setSendMsgTimeout(SEND_TIMEOUT_MS);
        requestTopic = Topics.create(requester, uniqueName("Request"));
        bed.clients().pushConsumer(uniqueName("responder"), requestTopic, "*", answerEachRequest(), c -> { });
    }

    /** Replies "re:" + body to every request; a message that is not a request (the topic's first) is skipped. */
    private static MessageListenerConcurrently answerEachRequest() {
        return (messages, context) -> {
            for (MessageExt request : messages) {
                if (request.getProperty(MessageConst.PROPERTY_CORRELATION_ID) == null) {
                    continue;
                }
                try {
                    Message reply = MessageUtil.createReplyMessage(request,
                        ("re:" + new String(request.getBody(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
                    SendResult sent = replier.send(reply);
                    if (sent.getSendStatus() != SendStatus.SEND_OK) {
                        return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                    }
                } catch (Exception e) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
    }

    @Test
    void aSyncRequestGetsItsReply() throws Exception {
        Message reply = requester.request(request("sync"), REQUEST_TIMEOUT_MS);
        assertEquals("re:sync", new String(reply.getBody(), StandardCharsets.UTF_8));
        assertEquals(MixAll.REPLY_MESSAGE_FLAG, reply.getProperty(MessageConst.PROPERTY_MESSAGE_TYPE));
        assertEquals(BrokerSettings.CLUSTER + "_" + MixAll.REPLY_TOPIC_POSTFIX, reply.getTopic());
    }

    @Test
    void anAsyncRequestGetsItsReplyThroughTheCallback() throws Exception {
        CompletableFuture<Message> replied = new CompletableFuture<>();
        requester.request(request("async"), new RequestCallback() {
            @Override
            public void onSuccess(Message message) {
                // The 5.5.0 client calls onSuccess(null) once the request is sent, then again with the reply.
                if (message != null) {
                    replied.complete(message);
                }
            }

            @Override
            public void onException(Throwable e) {
                replied.completeExceptionally(e);
            }
        }, REQUEST_TIMEOUT_MS);
        Message reply = replied.get(REQUEST_TIMEOUT_MS * 2, TimeUnit.MILLISECONDS);
        assertEquals("re:async", new String(reply.getBody(), StandardCharsets.UTF_8));
    }

    @Test
    void aRequestToASelectedQueueGetsItsReply() throws Exception {
        Message reply = requester.request(request("selected"), (queues, message, arg) -> queues.get(queues.size() - 1),
            null, REQUEST_TIMEOUT_MS);
        assertEquals("re:selected", new String(reply.getBody(), StandardCharsets.UTF_8));
    }

    @Test
    void aReplyForARequesterThatIsNotConnectedIsRefusedWithSystemError() throws Exception {
        DefaultMQProducer once = bed.clients().producer(uniqueName("replier_once"));
        once.setRetryTimesWhenSendFailed(0);
        once.setSendMsgTimeout(SEND_TIMEOUT_MS);
        Message reply = new Message(BrokerSettings.CLUSTER + "_" + MixAll.REPLY_TOPIC_POSTFIX,
            "orphan".getBytes(StandardCharsets.UTF_8));
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_MESSAGE_TYPE, MixAll.REPLY_MESSAGE_FLAG);
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_CORRELATION_ID, "no-such-request");
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_MESSAGE_REPLY_TO_CLIENT, "127.0.0.9@gone");
        // SYSTEM_ERROR is one of the codes the producer retries; after its last try it wraps the broker's answer.
        MQClientException failed = assertThrows(MQClientException.class, () -> once.send(reply));
        MQBrokerException refused = assertInstanceOf(MQBrokerException.class, failed.getCause(), failed.toString());
        assertEquals(ResponseCode.SYSTEM_ERROR, refused.getResponseCode(), refused.toString());
        assertTrue(refused.getErrorMessage().contains("channel of <127.0.0.9@gone> not found"), refused.toString());
    }

    @Test
    void aRequestNobodyAnswersTimesOut() throws Exception {
        String silentTopic = Topics.create(requester, uniqueName("Unanswered"));
        assertThrows(RequestTimeoutException.class, () -> requester.request(new Message(silentTopic,
            "nobody".getBytes(StandardCharsets.UTF_8)), 2_000));
    }

    private static Message request(String body) {
        return new Message(requestTopic, "Req", body.getBytes(StandardCharsets.UTF_8));
    }
}
