package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.RawRequests;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.RawConnection;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests the broker must refuse: each gets RocketMQ's response code with a remark, on the same connection, which
 * then goes on serving requests, and the broker goes on serving the official producer. Requests are encoded by the
 * official {@code RemotingCommand} and written on one plain socket per test, so "the same connection" is certain.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BadInputIT {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(20);
    private static final int STORED_IN_QUEUE_ZERO = 3;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQProducer producer;
    private static String topic;
    private RawConnection connection;

    @BeforeAll
    static void startNameServerBrokerAndATopicWithThreeMessagesInQueueZero() throws Exception {
        bed = TestBed.start(resources, brokers, dir, "broker-bad-input");
        producer = bed.clients().producer(uniqueName("bad_input_producer"));
        topic = uniqueName("BadInput");
        MessageQueue queueZero = new MessageQueue(topic, bed.broker().brokerName(), 0);
        for (int index = 0; index < STORED_IN_QUEUE_ZERO; index++) {
            SendResult result = producer.send(new Message(topic, "TagA", ("stored-" + index).getBytes(
                StandardCharsets.UTF_8)), queueZero);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
        try (RawConnection probe = RawConnection.open(bed.broker().listenPort(), READ_TIMEOUT)) {
            Await.until(STORED_IN_QUEUE_ZERO + " messages in queue 0 of " + topic, STORE_TIMEOUT,
                () -> maxOffset(probe) == STORED_IN_QUEUE_ZERO);
        }
    }

    @BeforeEach
    void openConnection() throws Exception {
        connection = RawConnection.open(bed.broker().listenPort(), READ_TIMEOUT);
    }

    @AfterEach
    void closeConnection() throws Exception {
        connection.close();
    }

    @Test
    void aPullForAnUnknownTopicIsAnsweredTopicNotExistAndTheConnectionGoesOn() throws Exception {
        RemotingCommand response = exchange(RawRequests.pull(uniqueName("bad_group"), uniqueName("NoSuchTopic"), 0,
            0, 0));

        assertRefused(ResponseCode.TOPIC_NOT_EXIST, response);
        assertConnectionAndBrokerGoOn();
    }

    @Test
    void aPullOfAGroupWithNoSubscriptionIsAnsweredSubscriptionNotExistAndTheConnectionGoesOn() throws Exception {
        RemotingCommand response = exchange(RawRequests.pullWithoutSubscription(uniqueName("silent_group"), topic,
            0, 0));

        assertTrue(Set.of(ResponseCode.SUBSCRIPTION_NOT_EXIST, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST)
            .contains(response.getCode()), "expected 24 or 26, got " + describe(response));
        assertHasRemark(response);
        assertConnectionAndBrokerGoOn();
    }

    @Test
    void aPullPastTheEndIsAnsweredOffsetMovedWithNextBeginOffsetAtTheMaxAndTheConnectionGoesOn() throws Exception {
        RemotingCommand response = exchange(RawRequests.pull(uniqueName("far_group"), topic, 0,
            STORED_IN_QUEUE_ZERO + 100, 0));

        assertEquals(ResponseCode.PULL_OFFSET_MOVED, response.getCode(), describe(response));
        assertNotNull(response.getExtFields(), describe(response));
        assertEquals(Long.toString(STORED_IN_QUEUE_ZERO), response.getExtFields().get("nextBeginOffset"),
            "nextBeginOffset: " + describe(response));
        assertEquals(Long.toString(STORED_IN_QUEUE_ZERO), response.getExtFields().get("maxOffset"),
            "maxOffset: " + describe(response));
        assertConnectionAndBrokerGoOn();
    }

    @Test
    void aMessageOverMaxMessageSizeIsAnsweredMessageIllegalAndTheConnectionGoesOn() throws Exception {
        byte[] body = new byte[BrokerSettings.MAX_MESSAGE_BYTES + 1];

        RemotingCommand response = exchange(RawRequests.sendV2(uniqueName("big_producer"), topic, 0, body));

        assertRefused(ResponseCode.MESSAGE_ILLEGAL, response);
        assertEquals(STORED_IN_QUEUE_ZERO, maxOffset(connection), "queue 0 after the refused message");
        assertConnectionAndBrokerGoOn();
    }

    @Test
    void aSendWhoseQueueIdIsNotANumberIsAnsweredSystemErrorAndTheConnectionGoesOn() throws Exception {
        Map<String, String> fields = RawRequests.sendV2Fields(uniqueName("typo_producer"), topic, 0);
        fields.put("e", "abc");

        RemotingCommand response = exchange(RawRequests.sendV2WithRawFields(fields,
            "queue abc".getBytes(StandardCharsets.UTF_8)));

        assertRefused(ResponseCode.SYSTEM_ERROR, response);
        assertEquals(STORED_IN_QUEUE_ZERO, maxOffset(connection), "queue 0 after the refused message");
        assertConnectionAndBrokerGoOn();
    }

    private RemotingCommand exchange(RemotingCommand request) throws Exception {
        return exchange(connection, request);
    }

    private static RemotingCommand exchange(RawConnection on, RemotingCommand request) throws Exception {
        on.write(request);
        RemotingCommand response = on.readCommand();
        assertTrue(response.isResponseType(), "not a response: " + describe(response));
        assertEquals(request.getOpaque(), response.getOpaque(), "opaque of " + describe(response));
        return response;
    }

    private static long maxOffset(RawConnection on) throws Exception {
        RemotingCommand response = exchange(on, RawRequests.maxOffset(topic, 0));
        assertEquals(ResponseCode.SUCCESS, response.getCode(), "GET_MAX_OFFSET: " + describe(response));
        return Long.parseLong(response.getExtFields().get("offset"));
    }

    /** The same socket still gets answers, and the official producer still sends. */
    private void assertConnectionAndBrokerGoOn() throws Exception {
        assertTrue(maxOffset(connection) >= STORED_IN_QUEUE_ZERO, "the same connection answers GET_MAX_OFFSET");
        SendResult result = producer.send(new Message(topic, "TagB", "after".getBytes(StandardCharsets.UTF_8)),
            new MessageQueue(topic, bed.broker().brokerName(), 1));
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
    }

    private static void assertRefused(int expectedCode, RemotingCommand response) {
        assertEquals(expectedCode, response.getCode(), describe(response));
        assertHasRemark(response);
    }

    private static void assertHasRemark(RemotingCommand response) {
        assertNotNull(response.getRemark(), "remark of " + describe(response));
        assertFalse(response.getRemark().isBlank(), "remark of " + describe(response));
    }

    private static String describe(RemotingCommand response) {
        return "response code " + response.getCode() + ", remark '" + response.getRemark() + "', header "
            + response.getExtFields();
    }
}
