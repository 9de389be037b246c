package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.assertIntact;
import static io.vrmq.compat.broker.support.TestMessages.message;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scheduled delivery with the official producer and push consumer: a message with a delay level is not delivered
 * before that level's delay (the broker runs with levels of n seconds), and 5.x timer messages
 * ({@code setDeliverTimeMs}, {@code setDelayTimeSec}) not before their time. In every test the consumer is
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
        bed = TestBed.start(resources, brokers, dir, "broker-delay",
            settings -> settings.withMessageDelayLevel(BrokerSettings.SHORT_DELAY_LEVELS));
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
