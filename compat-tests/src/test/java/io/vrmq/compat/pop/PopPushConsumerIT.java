package io.vrmq.compat.pop;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.mqadmin.MqAdmin;
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
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official 5.5.0 push consumer in POP mode ({@code mqadmin setConsumeMode -m POP}, clientRebalance off) against
 * our broker: it consumes everything, its acks stick, a group consuming the same topic by pull sees the same
 * messages with its own offsets, a failing listener gets its message back with reconsume times + 1 and, past the
 * group's retryMaxTimes, the message is in {@code %DLQ%group}.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class PopPushConsumerIT {
    private static final int MESSAGE_COUNT = 40;
    private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);

    private static final int SEND_TIMEOUT_MS = 15_000;

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
        bed = TestBed.start(resources, brokers, dir, "broker-pop");
        producer = bed.clients().producer(uniqueName("pop_producer"));
        // A loaded test machine: the default 3 s send timeout is too short for the first sends.
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
    }

    @Test
    void aPopConsumerAndAPullConsumerOfOneTopicEachGetEverythingOnceAndAckedMessagesNeverComeBack()
        throws Exception {
        String topic = Topics.create(producer, uniqueName("PopAll"));
        String popGroup = uniqueName("pop_group");
        String pullGroup = uniqueName("pull_group");
        PopConsumers.setPopMode(bed.namesrvAddr(), BrokerSettings.CLUSTER, topic, popGroup);
        Received popped = new Received();
        Received pulled = new Received();
        DefaultMQPushConsumer popConsumer = bed.clients().pushConsumer(popGroup, topic, "TagA",
            listener(popGroup, popped), consumer -> PopConsumers.configure(consumer,
                PopConsumers.MIN_INVISIBLE_TIME_MS, 8));
        bed.clients().pushConsumer(pullGroup, topic, "TagA", listener(pullGroup, pulled), consumer -> { });
        PopConsumers.awaitPopAssignment(popConsumer, topic);

        Set<String> sent = new TreeSet<>();
        for (int i = 0; i < MESSAGE_COUNT; i++) {
            Message message = new Message(topic, "TagA", ("pop-" + i).getBytes(StandardCharsets.UTF_8));
            SendResult result = producer.send(message);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            sent.add("pop-" + i);
        }
        Await.until("both groups got all " + MESSAGE_COUNT + " messages", CONSUME_TIMEOUT,
            () -> popped.distinctBodies().containsAll(sent) && pulled.distinctBodies().containsAll(sent));
        Await.until("no message of " + popGroup + " in flight", CONSUME_TIMEOUT,
            () -> inflightTotal(popGroup) == 0);
        long settled = System.currentTimeMillis();
        Await.until("one invisible time and two revive turns after the last ack", Duration.ofSeconds(30),
            () -> System.currentTimeMillis() - settled > PopConsumers.MIN_INVISIBLE_TIME_MS + 2_000);

        assertEquals(MESSAGE_COUNT, popped.deliveries().size(), "POP deliveries (none again after its ack): "
            + popped.duplicates());
        assertEquals(sent, pulled.distinctBodies(), "the pull group has its own offsets");
        for (Received.Delivery delivery : popped.deliveries()) {
            assertEquals(topic, delivery.message().getTopic());
            assertEquals(0, delivery.message().getReconsumeTimes());
        }
    }

    @Test
    void aFailingListenerGetsItsMessageBackWithReconsumeTimesPlusOneUntilTheDeadLetterQueue() throws Exception {
        String topic = Topics.create(producer, uniqueName("PopRetry"));
        String group = uniqueName("pop_retry_group");
        int retryMaxTimes = 2;
        DefaultMQAdminExt admin = bed.clients().admin();
        SubscriptionGroupConfig groupConfig = new SubscriptionGroupConfig();
        groupConfig.setGroupName(group);
        groupConfig.setRetryMaxTimes(retryMaxTimes);
        admin.createAndUpdateSubscriptionGroupConfig(bed.broker().address(), groupConfig);
        PopConsumers.setPopMode(bed.namesrvAddr(), BrokerSettings.CLUSTER, topic, group);
        Received received = new Received();
        DefaultMQPushConsumer consumer = bed.clients().unstartedPushConsumer(group, topic, "TagA",
            (MessageListenerConcurrently) (messages, context) -> {
                received.add(group, messages);
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }, c -> PopConsumers.configure(c, PopConsumers.MIN_INVISIBLE_TIME_MS, 1));
        PopConsumers.shortenRetryDelays(consumer, 1);
        consumer.start();
        PopConsumers.awaitPopAssignment(consumer, topic);

        SendResult result = producer.send(new Message(topic, "TagA", "poison".getBytes(StandardCharsets.UTF_8)));
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());

        TopicReader reader = new TopicReader(bed.clients().pullConsumer(uniqueName("pop_dlq_reader")));
        MessageQueue deadLetterQueue = new MessageQueue(MixAll.getDLQTopic(group), bed.broker().brokerName(), 0);
        List<MessageExt> deadLetters;
        try {
            deadLetters = reader.readQueue(deadLetterQueue, 0, 1, CONSUME_TIMEOUT);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; deliveries: " + received.deliveries(), e);
        }
        assertEquals(1, deadLetters.size(), "dead letters: " + deadLetters);
        MessageExt deadLetter = deadLetters.get(0);
        assertEquals("poison", new String(deadLetter.getBody(), StandardCharsets.UTF_8));
        assertEquals(result.getMsgId(), deadLetter.getMsgId(), "the dead letter keeps the message id");
        List<Integer> reconsumeTimes = new ArrayList<>();
        for (Received.Delivery delivery : received.deliveries()) {
            reconsumeTimes.add(delivery.message().getReconsumeTimes());
            assertEquals(topic, delivery.message().getTopic(), "a retried message comes under its own topic");
            assertEquals(result.getMsgId(), delivery.message().getMsgId());
        }
        assertEquals(List.of(0, 1, 2), reconsumeTimes, "the first delivery and " + retryMaxTimes + " retries");
    }

    private static MessageListenerConcurrently listener(String group, Received received) {
        return (messages, context) -> {
            received.add(group, messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
    }

    /** The "Consume Inflight Total" line of {@code mqadmin consumerProgress -g group}. */
    private static long inflightTotal(String group) {
        MqAdmin.Output output = MqAdmin.run(bed.namesrvAddr(), "consumerProgress", "-g", group);
        String line = output.lineWith("Consume Inflight Total:");
        return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
    }
}
