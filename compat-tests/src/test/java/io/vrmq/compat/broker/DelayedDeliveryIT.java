package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.assertIntact;
import static io.vrmq.compat.broker.support.TestMessages.message;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.TestMessages;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.producer.RecallMessageHandle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scheduled delivery with the official producer and push consumer: a message with a delay level is not delivered
 * before that level's delay (the broker runs with levels of n seconds), and 5.x timer messages
 * ({@code setDeliverTimeMs}, {@code setDelayTimeSec}) not before their time; a recalled timer message
 * ({@code recallMessage}, the broker runs with recallMessageEnable) never. In every test the consumer is
 * subscribed and owns the topic's queues before the send, so an early delivery would be seen.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DelayedDeliveryIT {

    /** Level 3 of {@link BrokerSettings#SHORT_DELAY_LEVELS}: 3 s. */
    private static final int DELAY_LEVEL = 3;
    private static final long DELAY_LEVEL_MS = 3_000;
    private static final long TIMER_DELAY_MS = 4_000;
    /**
     * RocketMQ's timer wheel works in slots of timerPrecisionMs (1 s by default) and rounds a deliver time down to its
     * slot, so a timer message may be delivered up to one slot before the requested time.
     */
    private static final long TIMER_PRECISION_MS = 1_000;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    private static final String BROKER_NAME = "broker-delay";
    /** RocketMQ 5.x ResponseCode.ILLEGAL_OPERATION: the broker refuses a recall it cannot carry out. */
    private static final int ILLEGAL_OPERATION = 604;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void startNameServerBrokerAndProducer() throws Exception {
        bed = TestBed.start(resources, brokers, dir, BROKER_NAME,
            settings -> settings.withMessageDelayLevel(BrokerSettings.SHORT_DELAY_LEVELS),
            Map.of("recallMessageEnable", true));
        producer = bed.clients().producer(uniqueName("delay_producer"));
    }

    @Test
    void aMessageWithDelayLevelThreeIsDeliveredButNotBeforeThreeSeconds() throws Exception {
        Subscribed subscribed = subscribedConsumer("DelayLevel");
        Message sent = message(subscribed.topic(), "delayed", "TagA", 0);
        sent.setDelayTimeLevel(DELAY_LEVEL);

        long sentAtMs = System.currentTimeMillis();
        send(sent);

        Received.Delivery delivery = subscribed.received().awaitFirst(DELIVERY_TIMEOUT);
        long waitedMs = delivery.receivedAtMs() - sentAtMs;
        assertTrue(waitedMs >= DELAY_LEVEL_MS, "delivered " + waitedMs + " ms after the send, before level "
            + DELAY_LEVEL + " (" + DELAY_LEVEL_MS + " ms)");
        assertIntact(sent, delivery.message());
    }

    @Test
    void aTimerMessageWithADeliverTimeIsDeliveredButNotBeforeThatTime() throws Exception {
        Subscribed subscribed = subscribedConsumer("DeliverTime");
        Message sent = message(subscribed.topic(), "timer-at", "TagA", 0);
        long deliverAtMs = System.currentTimeMillis() + TIMER_DELAY_MS;
        sent.setDeliverTimeMs(deliverAtMs);

        send(sent);

        Received.Delivery delivery = subscribed.received().awaitFirst(DELIVERY_TIMEOUT);
        assertTrue(delivery.receivedAtMs() >= deliverAtMs - TIMER_PRECISION_MS, "delivered "
            + (deliverAtMs - delivery.receivedAtMs()) + " ms before the deliver time");
        assertIntact(sent, delivery.message());
    }

    @Test
    void aTimerMessageWithADelayInSecondsIsDeliveredButNotBeforeThatDelay() throws Exception {
        Subscribed subscribed = subscribedConsumer("DelaySec");
        Message sent = message(subscribed.topic(), "timer-sec", "TagA", 0);
        sent.setDelayTimeSec(TimeUnit.MILLISECONDS.toSeconds(TIMER_DELAY_MS));

        long sentAtMs = System.currentTimeMillis();
        send(sent);

        Received.Delivery delivery = subscribed.received().awaitFirst(DELIVERY_TIMEOUT);
        long waitedMs = delivery.receivedAtMs() - sentAtMs;
        assertTrue(waitedMs >= TIMER_DELAY_MS - TIMER_PRECISION_MS, "delivered " + waitedMs
            + " ms after a send with a delay of " + TIMER_DELAY_MS + " ms");
        assertIntact(sent, delivery.message());
    }

    /**
     * Two timer messages for the same second on one queue; the first is recalled (the broker runs with
     * recallMessageEnable): only the second arrives, and the queue got only it, so the first was dropped in the
     * very delivery step that stored the second and can never arrive later.
     */
    @Test
    void aRecalledTimerMessageIsNeverConsumedWhileItsSiblingIs() throws Exception {
        Subscribed subscribed = subscribedConsumer("Recall");
        MessageQueue queue = new MessageQueue(subscribed.topic(), BROKER_NAME, 0);
        long deliverAtMs = System.currentTimeMillis() + TIMER_DELAY_MS;
        Message recalled = message(subscribed.topic(), "recalled", "TagA", 0);
        recalled.setDeliverTimeMs(deliverAtMs);
        Message kept = message(subscribed.topic(), "kept", "TagA", 1);
        kept.setDeliverTimeMs(deliverAtMs);

        long storedBefore = producer.maxOffset(queue);   // the message that created the topic may be in it
        SendResult recalledSend = producer.send(recalled, queue);
        SendResult keptSend = producer.send(kept, queue);
        assertNotNull(keptSend.getRecallHandle(), "a timer message's send result has a recall handle");
        String recalledId = producer.recallMessage(subscribed.topic(), recalledSend.getRecallHandle());

        assertEquals(recalledSend.getMsgId(), recalledId, "the recall answers the recalled message's id");
        Received.Delivery delivery = subscribed.received().awaitFirst(DELIVERY_TIMEOUT);
        assertIntact(kept, delivery.message());
        assertEquals(storedBefore + 1, producer.maxOffset(queue), "only the kept message was stored to its queue");
        assertEquals(List.of(TestMessages.body(kept)), subscribed.received().bodies());
    }

    /** A handle of another topic, or of a message already due, is refused with RocketMQ's ILLEGAL_OPERATION. */
    @Test
    void aRecallWithABadHandleIsRefusedWithRocketMqsCode() throws Exception {
        String topic = Topics.create(producer, uniqueName("RecallBad"));
        Message sent = message(topic, "timer", "TagA", 0);
        sent.setDeliverTimeMs(System.currentTimeMillis() + 60_000);
        SendResult result = producer.send(sent);
        String otherTopics = RecallMessageHandle.HandleV1.buildHandle(topic + "Other", BROKER_NAME,
            Long.toString(System.currentTimeMillis() + 60_000), result.getMsgId());
        String alreadyDue = RecallMessageHandle.HandleV1.buildHandle(topic, BROKER_NAME,
            Long.toString(System.currentTimeMillis() - 1_000), result.getMsgId());

        MQBrokerException wrongTopic = assertThrows(MQBrokerException.class,
            () -> producer.recallMessage(topic, otherTopics));
        MQBrokerException tooLate = assertThrows(MQBrokerException.class,
            () -> producer.recallMessage(topic, alreadyDue));

        assertEquals(ILLEGAL_OPERATION, wrongTopic.getResponseCode());
        assertEquals("recall failed, topic not match", wrongTopic.getErrorMessage());
        assertEquals(ILLEGAL_OPERATION, tooLate.getResponseCode());
        assertEquals("recall failed, timestamp invalid", tooLate.getErrorMessage());
    }

    private static void send(Message message) throws Exception {
        SendResult result = producer.send(message);
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
    }

    /** A topic and what its consumer received. */
    private record Subscribed(String topic, Received received) {
    }

    /** A new topic and a consumer of its TagA messages that owns all its queues. */
    private static Subscribed subscribedConsumer(String prefix) throws Exception {
        String topic = Topics.create(producer, uniqueName(prefix));
        Received received = new Received();
        MessageListenerConcurrently listener = (messages, context) -> {
            received.add(topic, messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
        DefaultMQPushConsumer consumer = bed.clients().pushConsumer(uniqueName(prefix + "_group"), topic, "TagA",
            listener, c -> { });
        Topics.awaitOwnedQueues(consumer, topic, Topics.AUTO_CREATED_QUEUE_COUNT);
        return new Subscribed(topic, received);
    }
}
