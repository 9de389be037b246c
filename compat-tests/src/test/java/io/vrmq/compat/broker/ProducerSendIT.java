package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.assertEachReceivedOnceIntact;
import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official producer's four ways of sending (sync, async, oneway, batch) against our broker; what was sent is read
 * back with the official pull consumer, each message once with its body, tags, keys and user properties.
 * One NameServer and one broker serve the class; each test has its own topic.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProducerSendIT {

    private static final int MESSAGE_COUNT = 20;
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQProducer producer;
    private static TopicReader reader;

    @BeforeAll
    static void startNameServerBrokerAndClients() throws Exception {
        bed = TestBed.start(resources, brokers, dir, "broker-send");
        producer = bed.clients().producer(uniqueName("send_producer"));
        reader = new TopicReader(bed.clients().pullConsumer(uniqueName("send_reader")));
    }

    @Test
    void syncSendsAreAcknowledgedAndEachMessageIsStoredOnceIntact() throws Exception {
        String topic = uniqueName("SendSync");
        List<Message> sent = series(topic, "sync", "TagA", MESSAGE_COUNT);
        Set<String> acknowledgedIds = new HashSet<>();
        for (Message message : sent) {
            SendResult result = producer.send(message);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            acknowledgedIds.add(result.getMsgId());
        }

        List<MessageExt> stored = reader.readAll(topic, sent.size(), STORE_TIMEOUT);

        assertEachReceivedOnceIntact(sent, stored);
        assertEquals(acknowledgedIds, stored.stream().map(MessageExt::getMsgId).collect(Collectors.toSet()),
            "message ids from the send results and from the pull");
    }

    @Test
    void asyncSendsCallBackWithSendOkAndEachMessageIsStoredOnceIntact() throws Exception {
        String topic = uniqueName("SendAsync");
        List<Message> sent = series(topic, "async", "TagB", MESSAGE_COUNT);
        producer.send(sent.get(0));    // creates the topic, so the async sends race no auto-creation
        List<CompletableFuture<SendResult>> results = new ArrayList<>();
        for (Message message : sent.subList(1, sent.size())) {
            CompletableFuture<SendResult> result = new CompletableFuture<>();
            producer.send(message, new SendCallback() {
                @Override
                public void onSuccess(SendResult sendResult) {
                    result.complete(sendResult);
                }

                @Override
                public void onException(Throwable error) {
                    result.completeExceptionally(error);
                }
            });
            results.add(result);
        }
        for (CompletableFuture<SendResult> result : results) {
            SendResult sendResult = result.get(STORE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            assertEquals(SendStatus.SEND_OK, sendResult.getSendStatus(), sendResult.toString());
        }

        assertEachReceivedOnceIntact(sent, reader.readAll(topic, sent.size(), STORE_TIMEOUT));
    }

    @Test
    void onewaySendsAreAllStoredOnceIntact() throws Exception {
        String topic = uniqueName("SendOneway");
        List<Message> sent = series(topic, "oneway", "TagC", MESSAGE_COUNT);
        producer.send(sent.get(0));    // a oneway send to a topic without a route would not learn it was refused
        for (Message message : sent.subList(1, sent.size())) {
            producer.sendOneway(message);
        }

        assertEachReceivedOnceIntact(sent, reader.readAll(topic, sent.size(), STORE_TIMEOUT));
    }

    @Test
    void aBatchIsStoredWholeInOneQueueAtConsecutiveOffsetsWithEachMessageIntact() throws Exception {
        String topic = uniqueName("SendBatch");
        List<Message> batch = series(topic, "batch", "TagD", MESSAGE_COUNT);
        MessageQueue queue = new MessageQueue(topic, bed.broker().brokerName(), 1);

        SendResult result = producer.send(batch, queue);

        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        assertEquals(1, result.getMessageQueue().getQueueId(), result.toString());
        assertEquals(MESSAGE_COUNT, result.getMsgId().split(",").length, "ids in the batch result " + result);
        List<MessageExt> stored = reader.readQueue(queue, 0, MESSAGE_COUNT, STORE_TIMEOUT);
        assertEachReceivedOnceIntact(batch, stored);
        List<Long> offsets = stored.stream().map(MessageExt::getQueueOffset).sorted().toList();
        long first = offsets.get(0);
        for (int index = 0; index < offsets.size(); index++) {
            assertEquals(first + index, offsets.get(index), "queue offsets of the batch " + offsets);
        }
        assertEquals(result.getQueueOffset(), first, "the result's queue offset is the batch's first");
        assertNotNull(stored.get(0).getMsgId());
        assertTrue(stored.stream().allMatch(message -> message.getQueueId() == 1), "all in queue 1: " + stored);
    }

    /**
     * The 5.5.0 client refuses TIMER_* messages in a batch itself; a batch whose message asks for a time the client
     * does not check (the older __STARTDELIVERTIME) is refused by our broker with MESSAGE_ILLEGAL rather than stored
     * at once with its time dropped.
     */
    @Test
    void aBatchWithATimerMessageIsRefusedAsMessageIllegal() throws Exception {
        String topic = uniqueName("SendBatchTimer");
        MessageQueue queue = new MessageQueue(topic, bed.broker().brokerName(), 0);
        List<Message> timed = series(topic, "timer", "TagD", 3);
        timed.get(1).setDeliverTimeMs(System.currentTimeMillis() + 60_000);
        assertThrows(MQClientException.class, () -> producer.send(timed, queue), "the client's own check");

        List<Message> batch = series(topic, "timer", "TagD", 3);
        MessageAccessor.putProperty(batch.get(1), "__STARTDELIVERTIME",
            Long.toString(System.currentTimeMillis() + 60_000));
        MQBrokerException refused = assertThrows(MQBrokerException.class, () -> producer.send(batch, queue));

        assertEquals(ResponseCode.MESSAGE_ILLEGAL, refused.getResponseCode(), refused.toString());
        assertTrue(refused.getErrorMessage().contains("message 1 of the batch"), refused.toString());
    }
}
