package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.bodies;
import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official push consumer on our broker: two consumers of one group in CLUSTERING mode split the queues and
 * consume every message once between them; in BROADCASTING mode each gets every message; a tag expression
 * ("TagA || TagB") delivers only those tags. One NameServer and one broker serve the class.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PushConsumerIT {

    private static final int QUEUE_COUNT = 4;
    private static final int MESSAGE_COUNT = 40;
    /** The client rebalances at once on NOTIFY_CONSUMER_IDS_CHANGED, else every 20 s; both fit. */
    private static final Duration REBALANCE_TIMEOUT = Duration.ofSeconds(45);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(30);

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
        // Broadcasting consumers keep offsets in local files: keep them in the temp dir, not in ~/.rocketmq_offsets.
        System.setProperty("rocketmq.client.localOffsetStoreDir", dir.resolve("client-offsets").toString());
        bed = TestBed.start(resources, brokers, dir, "broker-push");
        producer = bed.clients().producer(uniqueName("push_producer"));
    }

    @Test
    void twoClusteringConsumersOfOneGroupSplitTheQueuesAndConsumeEachMessageOnce() throws Exception {
        String topic = createTopic("PushCluster");
        String group = uniqueName("push_cluster");
        Received received = new Received();
        DefaultMQPushConsumer first = consumer(group, topic, "TagA", "first", received, MessageModel.CLUSTERING);
        DefaultMQPushConsumer second = consumer(group, topic, "TagA", "second", received, MessageModel.CLUSTERING);
        Await.until("the two consumers owning two queues each", REBALANCE_TIMEOUT,
            () -> ownedQueues(first, topic).size() == 2 && ownedQueues(second, topic).size() == 2);
        Set<MessageQueue> all = new HashSet<>(ownedQueues(first, topic));
        all.addAll(ownedQueues(second, topic));
        assertEquals(QUEUE_COUNT, all.size(), "queues owned: " + ownedQueues(first, topic) + " and "
            + ownedQueues(second, topic));
        // After a rebalance the client raises its subVersion and heartbeats, but that heartbeat is skipped when the
        // periodic one holds the client's lock; until the next one (30 s) any broker, Apache's too, answers the
        // pulls with 25 SUBSCRIPTION_NOT_LATEST. A heartbeat now closes that client-side race.
        heartbeat(first);
        heartbeat(second);

        List<Message> sent = sendAll(series(topic, "cluster", "TagA", MESSAGE_COUNT));
        received.awaitAll(bodies(sent), RECEIVE_TIMEOUT);

        assertEquals(Map.of(), received.duplicates(), "messages consumed more than once");
        assertEquals(Set.copyOf(bodies(sent)), received.distinctBodies());
        assertFalse(received.bodiesOf("first").isEmpty(), "the first consumer got none: " + received.bodies());
        assertFalse(received.bodiesOf("second").isEmpty(), "the second consumer got none: " + received.bodies());
    }

    @Test
    void twoBroadcastingConsumersOfOneGroupEachConsumeEveryMessage() throws Exception {
        String topic = createTopic("PushBroadcast");
        String group = uniqueName("push_broadcast");
        Received received = new Received();
        consumer(group, topic, "TagA", "first", received, MessageModel.BROADCASTING);
        consumer(group, topic, "TagA", "second", received, MessageModel.BROADCASTING);

        List<Message> sent = sendAll(series(topic, "broadcast", "TagA", MESSAGE_COUNT));

        received.awaitAllBy("first", bodies(sent), RECEIVE_TIMEOUT);
        received.awaitAllBy("second", bodies(sent), RECEIVE_TIMEOUT);
        assertEquals(MESSAGE_COUNT, received.bodiesOf("first").size(), "first: " + received.bodiesOf("first"));
        assertEquals(MESSAGE_COUNT, received.bodiesOf("second").size(), "second: " + received.bodiesOf("second"));
    }

    @Test
    void aConsumerSubscribedToTagAOrTagBGetsOnlyThoseTags() throws Exception {
        String topic = createTopic("PushTags");
        List<Message> wanted = new ArrayList<>();
        for (int index = 0; index < MESSAGE_COUNT / 4; index++) {
            sendOne(Tagged.tagged(topic, "TagC", index));
            sendOne(Tagged.untagged(topic, index));
            wanted.add(sendOne(Tagged.tagged(topic, "TagA", index)));
            wanted.add(sendOne(Tagged.tagged(topic, "TagB", index)));
        }
        // A TagA message last in every queue: once all wanted ones arrived, each queue was read past every other tag.
        for (int queueId = 0; queueId < QUEUE_COUNT; queueId++) {
            Message last = Tagged.tagged(topic, "TagA", 1_000 + queueId);
            SendResult result = producer.send(last, new MessageQueue(topic, bed.broker().brokerName(), queueId));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            wanted.add(last);
        }
        Received received = new Received();

        consumer(uniqueName("push_tags"), topic, "TagA || TagB", "tags", received, MessageModel.CLUSTERING);

        received.awaitAll(bodies(wanted), RECEIVE_TIMEOUT);
        assertEquals(Set.copyOf(bodies(wanted)), received.distinctBodies(), "bodies received");
        assertTrue(received.deliveries().stream()
                .allMatch(delivery -> Set.of("TagA", "TagB").contains(delivery.message().getTags())),
            "tags received: " + received.deliveries().stream().map(d -> d.message().getTags()).toList());
    }

    /**
     * Creates the topic with four queues by sending one message tagged "Create" (auto-creation from TBW102), which the
     * tests' TagA subscriptions skip, and waits for the topic's route.
     */
    private static String createTopic(String prefix) throws Exception {
        String topic = uniqueName(prefix);
        sendOne(Tagged.tagged(topic, "Create", -1));
        Await.until("a route with " + QUEUE_COUNT + " queues for " + topic, REBALANCE_TIMEOUT,
            () -> producer.fetchPublishMessageQueues(topic).size() == QUEUE_COUNT);
        return topic;
    }

    private static List<Message> sendAll(List<Message> messages) throws Exception {
        for (Message message : messages) {
            sendOne(message);
        }
        return messages;
    }

    private static Message sendOne(Message message) throws Exception {
        SendResult result = producer.send(message);
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        return message;
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, String expression, String name,
                                                  Received received, MessageModel model) throws Exception {
        MessageListenerConcurrently listener = (messages, context) -> {
            received.add(name, messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
        return bed.clients().pushConsumer(group, topic, expression, listener,
            consumer -> consumer.setMessageModel(model));
    }

    private static void heartbeat(DefaultMQPushConsumer consumer) {
        Await.until("a heartbeat of " + consumer.getInstanceName() + " sent", REBALANCE_TIMEOUT,
            () -> consumer.getDefaultMQPushConsumerImpl().getmQClientFactory().sendHeartbeatToAllBrokerWithLock());
    }

    /**
     * The queues of {@code topic} the consumer owns. Its process queue table also holds the group's retry topic
     * queue once the client has that route (at its next route poll), which one of the two consumers then owns too.
     */
    private static Set<MessageQueue> ownedQueues(DefaultMQPushConsumer consumer, String topic) {
        Set<MessageQueue> owned = new HashSet<>();
        for (MessageQueue queue : consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable()
            .keySet()) {
            if (queue.getTopic().equals(topic)) {
                owned.add(queue);
            }
        }
        return owned;
    }

    /** Messages with bodies "<tag>-<index>", so a received body tells which tag it was sent with. */
    private static final class Tagged {
        static Message tagged(String topic, String tag, int index) {
            return new Message(topic, tag, (tag + "-" + index).getBytes(StandardCharsets.UTF_8));
        }

        static Message untagged(String topic, int index) {
            return new Message(topic, ("untagged-" + index).getBytes(StandardCharsets.UTF_8));
        }
    }
}
