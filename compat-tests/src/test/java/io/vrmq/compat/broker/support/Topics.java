package io.vrmq.compat.broker.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.vrmq.compat.support.Await;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.Message;

/**
 * Preparing topics and consumers the way an application would, with the official clients only. Stateless.
 */
public final class Topics {

    /** Auto-created topics get min(4, TBW102's 8) queues, as in RocketMQ. */
    public static final int AUTO_CREATED_QUEUE_COUNT = 4;
    /** The tag of the message that creates a topic; the tests' consumers subscribe to other tags. */
    public static final String CREATE_TAG = "Create";
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);

    private Topics() {
    }

    /**
     * Creates {@code topic} by sending one message tagged {@value #CREATE_TAG} to it (auto-creation from TBW102) and
     * waits until the producer's route shows all its queues.
     */
    public static String create(DefaultMQProducer producer, String topic) throws Exception {
        SendResult result = producer.send(new Message(topic, CREATE_TAG, "create".getBytes(StandardCharsets.UTF_8)));
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        Await.until("a route with " + AUTO_CREATED_QUEUE_COUNT + " queues for " + topic, ROUTE_TIMEOUT,
            () -> producer.fetchPublishMessageQueues(topic).size() == AUTO_CREATED_QUEUE_COUNT);
        return topic;
    }

    /**
     * Waits until a clustering push consumer owns the queue of its group's retry topic. The client looks up that
     * topic's route when it starts, before its first heartbeat makes the broker create the topic (Apache's broker
     * does the same), and would look again only after pollNameServerInterval (30 s) and rebalance after another
     * 20 s; this asks the client to do both now, so a retry test takes seconds.
     */
    public static void awaitOwnedRetryQueue(DefaultMQPushConsumer consumer) {
        String retryTopic = MixAll.getRetryTopic(consumer.getConsumerGroup());
        MQClientInstance client = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory();
        Await.until(consumer.getInstanceName() + " owning the queue of " + retryTopic, ROUTE_TIMEOUT, () -> {
            client.updateTopicRouteInfoFromNameServer(retryTopic);
            client.rebalanceImmediately();
            return consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet()
                .stream().anyMatch(queue -> queue.getTopic().equals(retryTopic));
        });
    }

    /** Waits until a push consumer's rebalance gave it {@code queueCount} queues of its subscriptions. */
    public static void awaitOwnedQueues(DefaultMQPushConsumer consumer, String topic, int queueCount) {
        Await.until(consumer.getInstanceName() + " owning " + queueCount + " queues of " + topic, ROUTE_TIMEOUT,
            () -> consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet().stream()
                .filter(queue -> queue.getTopic().equals(topic)).count() == queueCount);
    }
}
