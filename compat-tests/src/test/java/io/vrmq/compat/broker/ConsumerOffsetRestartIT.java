package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.bodies;
import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.Offsets;
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
 * Consumer offsets kept by the broker: a push consumer group that consumed N messages and shut down (persisting its
 * offsets with UPDATE_CONSUMER_OFFSET) resumes, when started again, with exactly the M messages sent meanwhile, even
 * though it is configured to start from the first offset.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ConsumerOffsetRestartIT {

    private static final int CONSUMED_BEFORE = 12;
    /** Two per queue: every queue has new messages after the restart. */
    private static final int SENT_WHILE_DOWN = 8;
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;

    @BeforeAll
    static void startNameServerAndBroker() {
        bed = TestBed.start(resources, brokers, dir, "broker-offsets");
    }

    @Test
    void aRestartedConsumerGroupGetsExactlyTheMessagesSentWhileItWasDown() throws Exception {
        DefaultMQProducer producer = bed.clients().producer(uniqueName("offsets_producer"));
        String topic = Topics.create(producer, uniqueName("Offsets"));
        String group = uniqueName("offsets_group");
        List<Message> before = send(producer, series(topic, "before", "TagA", CONSUMED_BEFORE));
        Received first = new Received();
        DefaultMQPushConsumer firstConsumer = consumer(group, topic, first);
        first.awaitAll(bodies(before), RECEIVE_TIMEOUT);
        Offsets.awaitConsumedToTheEnd(firstConsumer, topic, RECEIVE_TIMEOUT);
        firstConsumer.shutdown();

        List<Message> whileDown = send(producer, series(topic, "while-down", "TagA", SENT_WHILE_DOWN));
        Received second = new Received();
        consumer(group, topic, second);

        second.awaitAll(bodies(whileDown), RECEIVE_TIMEOUT);
        assertEquals(Set.copyOf(bodies(whileDown)), second.distinctBodies(), "bodies after the restart");
        assertEquals(Map.of(), second.duplicates(), "messages consumed twice after the restart");
    }

    private static List<Message> send(DefaultMQProducer producer, List<Message> messages) throws Exception {
        for (Message message : messages) {
            SendResult result = producer.send(message);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
        return messages;
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, Received received) throws Exception {
        MessageListenerConcurrently listener = (messages, context) -> {
            received.add(group, messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
        return bed.clients().pushConsumer(group, topic, "TagA", listener, consumer -> { });
    }
}
