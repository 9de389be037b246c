package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orderly messaging with the official client: the producer picks the queue by business key
 * ({@code MessageQueueSelector}), and a {@code MessageListenerOrderly} consumer (which locks its queues on the broker
 * with LOCK_BATCH_MQ before consuming) sees each key's messages in the order they were sent.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class OrderlyConsumeIT {

    private static final int QUEUE_COUNT = 4;
    private static final int KEY_COUNT = 8;
    private static final int STEPS_PER_KEY = 10;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(45);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;

    @BeforeAll
    static void startNameServerAndBroker() {
        bed = TestBed.start(resources, brokers, dir, "broker-orderly");
    }

    @Test
    void messagesSentToAQueueChosenByKeyAreConsumedOrderlyInSendOrderPerKey() throws Exception {
        DefaultMQProducer producer = bed.clients().producer(uniqueName("orderly_producer"));
        String topic = uniqueName("Orderly");
        producer.send(new Message(topic, "Create", "create".getBytes(StandardCharsets.UTF_8)));
        Await.until("a route with " + QUEUE_COUNT + " queues for " + topic, ROUTE_TIMEOUT,
            () -> producer.fetchPublishMessageQueues(topic).size() == QUEUE_COUNT);
        MessageQueueSelector byKey = (queues, message, key) -> queues.get(Math.floorMod(key.hashCode(),
            queues.size()));
        Map<String, Set<Integer>> queuesByKey = new TreeMap<>();
        List<String> sent = new ArrayList<>();
        for (int step = 0; step < STEPS_PER_KEY; step++) {
            for (int key = 0; key < KEY_COUNT; key++) {
                String orderKey = "order-" + key;
                String body = orderKey + ":" + step;
                SendResult result = producer.send(new Message(topic, "TagA", orderKey,
                    body.getBytes(StandardCharsets.UTF_8)), byKey, orderKey);
                assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
                queuesByKey.computeIfAbsent(orderKey, k -> new TreeSet<>()).add(result.getMessageQueue()
                    .getQueueId());
                sent.add(body);
            }
        }
        queuesByKey.forEach((key, queues) -> assertEquals(1, queues.size(), key + " went to queues " + queues));
        Received received = new Received();

        bed.clients().pushConsumer(uniqueName("orderly_group"), topic, "TagA",
            (MessageListenerOrderly) (messages, context) -> {
                received.add("orderly", messages);
                return ConsumeOrderlyStatus.SUCCESS;
            }, consumer -> consumer.setConsumeMessageBatchMaxSize(3));

        received.awaitAll(sent, RECEIVE_TIMEOUT);
        Map<String, List<Integer>> stepsByKey = new LinkedHashMap<>();
        for (Received.Delivery delivery : received.deliveries()) {
            String[] keyAndStep = delivery.body().split(":");
            stepsByKey.computeIfAbsent(keyAndStep[0], k -> new ArrayList<>()).add(Integer.parseInt(keyAndStep[1]));
        }
        List<Integer> inSendOrder = IntStream.range(0, STEPS_PER_KEY).boxed().toList();
        for (int key = 0; key < KEY_COUNT; key++) {
            assertEquals(inSendOrder, stepsByKey.get("order-" + key), "steps of order-" + key + " as consumed");
        }
        assertEquals(Map.of(), received.duplicates(), "messages consumed more than once");
        received.deliveries().stream().map(Received.Delivery::message).map(MessageExt::getTags)
            .forEach(tag -> assertEquals("TagA", tag));
    }
}
