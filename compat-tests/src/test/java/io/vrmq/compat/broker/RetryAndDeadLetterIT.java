package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.assertIntact;
import static io.vrmq.compat.broker.support.TestMessages.message;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retry and dead letters with the official push consumer: a message whose listener answers RECONSUME_LATER comes
 * back (CONSUMER_SEND_MSG_BACK, then %RETRY%group after delay level 3 + reconsumeTimes) with reconsumeTimes 1; past
 * the consumer's maxReconsumeTimes it lands in %DLQ%group. The broker runs with delay levels of n seconds so the
 * retries take seconds.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RetryAndDeadLetterIT {

    private static final int MAX_RECONSUME_TIMES = 2;
    /** Retry delays are levels 3 and 4 (3 s, 4 s); the deadlines leave room for a slow machine. */
    private static final Duration RETRY_TIMEOUT = Duration.ofSeconds(30);

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
        bed = TestBed.start(resources, brokers, dir, "broker-retry",
            settings -> settings.withMessageDelayLevel(BrokerSettings.SHORT_DELAY_LEVELS));
        producer = bed.clients().producer(uniqueName("retry_producer"));
    }

    @Test
    void aMessageTheListenerAsksToReconsumeLaterComesBackWithReconsumeTimesOne() throws Exception {
        String topic = Topics.create(producer, uniqueName("Retry"));
        Received received = new Received();
        DefaultMQPushConsumer consumer = consumer(uniqueName("retry_group"), topic, received,
            (messages, context) -> received.size() == 1 ? ConsumeConcurrentlyStatus.RECONSUME_LATER
                : ConsumeConcurrentlyStatus.CONSUME_SUCCESS, -1);
        Message sent = message(topic, "retry", "TagA", 0);

        SendResult result = producer.send(sent);

        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        try {
            Await.until("a second delivery of " + result.getMsgId(), RETRY_TIMEOUT, () -> received.size() >= 2);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; deliveries: " + received.deliveries(), e);
        }
        List<Received.Delivery> deliveries = received.deliveries();
        assertEquals(List.of(0, 1), deliveries.stream().map(delivery -> delivery.message().getReconsumeTimes())
            .toList(), "reconsumeTimes of the deliveries");
        for (Received.Delivery delivery : deliveries) {
            assertIntact(sent, delivery.message());
            assertEquals(result.getMsgId(), delivery.message().getMsgId(), "message id of a delivery");
        }
        consumer.shutdown();
    }

    @Test
    void aMessageStillFailingAfterMaxReconsumeTimesIsStoredInTheGroupsDeadLetterTopic() throws Exception {
        String topic = Topics.create(producer, uniqueName("DeadLetter"));
        String group = uniqueName("dlq_group");
        Received received = new Received();
        consumer(group, topic, received, (messages, context) -> ConsumeConcurrentlyStatus.RECONSUME_LATER,
            MAX_RECONSUME_TIMES);
        Message sent = message(topic, "dead", "TagA", 0);

        SendResult result = producer.send(sent);

        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        TopicReader reader = new TopicReader(bed.clients().pullConsumer(uniqueName("dlq_reader")));
        MessageQueue deadLetterQueue = new MessageQueue(MixAll.getDLQTopic(group), bed.broker().brokerName(), 0);
        List<MessageExt> deadLetters;
        try {
            deadLetters = reader.readQueue(deadLetterQueue, 0, 1, RETRY_TIMEOUT);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; deliveries: " + received.deliveries(), e);
        }
        assertEquals(1, deadLetters.size(), "dead letters: " + deadLetters);
        MessageExt deadLetter = deadLetters.get(0);
        assertEquals(MixAll.getDLQTopic(group), deadLetter.getTopic());
        assertEquals(sent.getTags(), deadLetter.getTags(), deadLetter.toString());
        assertEquals(sent.getKeys(), deadLetter.getKeys(), deadLetter.toString());
        assertEquals(new String(sent.getBody()), new String(deadLetter.getBody()), deadLetter.toString());
        assertEquals(result.getMsgId(), deadLetter.getMsgId(), "message id of the dead letter");
        assertEquals(List.of(0, 1, 2), received.deliveries().stream()
            .map(delivery -> delivery.message().getReconsumeTimes()).toList(),
            "reconsumeTimes of the deliveries: the first and " + MAX_RECONSUME_TIMES + " retries, then none");
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, Received received,
                                                  MessageListenerConcurrently decide, int maxReconsumeTimes)
        throws Exception {
        MessageListenerConcurrently listener = (messages, context) -> {
            received.add(group, messages);
            return decide.consumeMessage(messages, context);
        };
        DefaultMQPushConsumer consumer = bed.clients().pushConsumer(group, topic, "TagA", listener, c -> {
            c.setMaxReconsumeTimes(maxReconsumeTimes);
            c.setConsumeMessageBatchMaxSize(1);
        });
        Topics.awaitOwnedQueues(consumer, topic, Topics.AUTO_CREATED_QUEUE_COUNT);
        Topics.awaitOwnedRetryQueue(consumer);
        return consumer;
    }
}
