package io.vrmq.compat4x;

import static io.vrmq.compat4x.support.Clients49.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.vrmq.compat4x.support.Await;
import io.vrmq.compat4x.support.Clients49;
import io.vrmq.compat4x.support.Received;
import io.vrmq.compat4x.support.VrmqCluster;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Apache RocketMQ 4.9.8 client, unmodified, against our NameServer and broker: sync, async and oneway
 * sends (through the broker's fast channel, the 4.x default), a clustering push consumer with a tag filter, orderly
 * consumption per key, a delayed message, a committed transactional message, and the lite pull consumer's assign +
 * seek. One NameServer and broker for
 * the class; every test has its own topic and groups.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Client49IT {

    private static final int QUEUE_COUNT = 4;
    private static final int PERM_READ_WRITE = 6;
    private static final int MESSAGE_COUNT = 10;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final VrmqCluster cluster = new VrmqCluster();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static Clients49 clients;
    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void startNameServerBrokerAdminAndProducer() throws Exception {
        cluster.start(dir, "broker-client49");
        clients = new Clients49(cluster);
        admin = clients.admin();
        producer = clients.producer(uniqueName("producer49"), false);
    }

    @Test
    void syncSentMessagesReachAClusteringPushConsumerThatGetsOnlyItsTag() throws Exception {
        String topic = createTopic("Sync49");
        Received received = new Received();
        clients.pushConsumer(uniqueName("sync49"), topic, "TagA", concurrently(received));
        List<String> tagA = new ArrayList<>();
        List<String> tagB = new ArrayList<>();
        for (int index = 0; index < MESSAGE_COUNT; index++) {
            String tag = index % 2 == 0 ? "TagB" : "TagA";
            String body = "sync-" + tag + "-" + index;
            // Pairs (TagB, TagA) go to one queue each: every TagB is followed by a TagA in its queue.
            MessageQueue queue = new MessageQueue(topic, cluster.brokerName(), index / 2 % QUEUE_COUNT);
            SendResult result = producer.send(message(topic, tag, body), queue);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            (tag.equals("TagA") ? tagA : tagB).add(body);
        }

        // Queues are consumed in order: once every TagA arrived, an unfiltered TagB before it would have too.
        received.awaitAll(tagA, RECEIVE_TIMEOUT);

        assertEquals(new HashSet<>(tagA), new HashSet<>(received.bodies()), "the consumer of TagA got (none of "
            + tagB + " expected)");
        received.deliveries().forEach(delivery -> assertEquals("TagA", delivery.message().getTags()));
    }

    /** 4.9.8 sends through the broker's listen port unless the VIP channel (listenPort - 2) is enabled. */
    @Test
    void aProducerWithTheVipChannelEnabledSendsThroughTheFastChannel() throws Exception {
        String topic = createTopic("Vip49");
        Received received = new Received();
        clients.pushConsumer(uniqueName("vip49"), topic, "*", concurrently(received));
        DefaultMQProducer vipProducer = clients.producer(uniqueName("vip_producer49"), true);
        List<String> bodies = bodies("vip");

        for (String body : bodies) {
            SendResult result = vipProducer.send(message(topic, "TagA", body));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }

        received.awaitAll(bodies, RECEIVE_TIMEOUT);
    }

    @Test
    void asyncSendCallsBackWithSendOkForEveryMessageAndAllAreConsumed() throws Exception {
        String topic = createTopic("Async49");
        Received received = new Received();
        clients.pushConsumer(uniqueName("async49"), topic, "*", concurrently(received));
        ConcurrentLinkedQueue<Object> outcomes = new ConcurrentLinkedQueue<>();
        List<String> bodies = bodies("async");
        for (String body : bodies) {
            producer.send(message(topic, "TagA", body), new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    outcomes.add(result.getSendStatus());
                }

                @Override
                public void onException(Throwable error) {
                    outcomes.add(error);
                }
            });
        }

        Await.until("a callback for each of " + MESSAGE_COUNT + " async sends", RECEIVE_TIMEOUT,
            () -> outcomes.size() == MESSAGE_COUNT);
        outcomes.forEach(outcome -> assertEquals(SendStatus.SEND_OK, outcome, "async send outcome"));
        received.awaitAll(bodies, RECEIVE_TIMEOUT);
    }

    @Test
    void onewaySentMessagesAreAllConsumed() throws Exception {
        String topic = createTopic("Oneway49");
        Received received = new Received();
        clients.pushConsumer(uniqueName("oneway49"), topic, "*", concurrently(received));
        List<String> bodies = bodies("oneway");

        for (String body : bodies) {
            producer.sendOneway(message(topic, "TagA", body));
        }

        received.awaitAll(bodies, RECEIVE_TIMEOUT);
    }

    @Test
    void anOrderlyConsumerGetsTheMessagesOfEachKeyInSendOrder() throws Exception {
        String topic = createTopic("Orderly49");
        Map<String, List<Integer>> sequencesByKey = new LinkedHashMap<>();
        List<String> keys = List.of("order-a", "order-b", "order-c", "order-d", "order-e");
        keys.forEach(key -> sequencesByKey.put(key, new ArrayList<>()));
        clients.pushConsumer(uniqueName("orderly49"), topic, "*", (MessageListenerOrderly) (messages, context) -> {
            synchronized (sequencesByKey) {
                messages.forEach(message -> sequencesByKey.get(message.getKeys()).add(sequence(message)));
            }
            return ConsumeOrderlyStatus.SUCCESS;
        });

        for (int sequence = 0; sequence < MESSAGE_COUNT; sequence++) {
            for (String key : keys) {
                Message message = message(topic, "TagA", key + "-" + sequence);
                message.setKeys(key);
                SendResult result = producer.send(message, (queues, sent, arg) ->
                    queues.get(Math.floorMod(arg.hashCode(), queues.size())), key);
                assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            }
        }

        Await.until("every message of every key consumed", RECEIVE_TIMEOUT, () -> {
            synchronized (sequencesByKey) {
                return sequencesByKey.values().stream().allMatch(sequences -> sequences.size() >= MESSAGE_COUNT);
            }
        });
        List<Integer> sendOrder = IntStream.range(0, MESSAGE_COUNT).boxed().toList();
        synchronized (sequencesByKey) {
            sequencesByKey.forEach((key, sequences) -> assertEquals(sendOrder, sequences, "order of " + key));
        }
    }

    @Test
    void aDelayedMessageArrivesOnItsTopicNoSoonerThanItsLevelsDelay() throws Exception {
        String topic = createTopic("Delay49");
        Received received = new Received();
        clients.pushConsumer(uniqueName("delay49"), topic, "*", concurrently(received));
        int delayLevel = 3;
        long delayMs = TimeUnit.SECONDS.toMillis(delayLevel);    // VrmqCluster.SHORT_DELAY_LEVELS: level n = n s
        Message message = message(topic, "TagA", "delayed");
        message.setDelayTimeLevel(delayLevel);

        long sentAtMs = System.currentTimeMillis();
        SendResult result = producer.send(message);

        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        received.awaitAll(List.of("delayed"), RECEIVE_TIMEOUT);
        Received.Delivery delivery = received.deliveries().get(0);
        assertEquals(topic, delivery.message().getTopic());
        assertTrue(delivery.receivedAtMs() - sentAtMs >= delayMs, "delivered after "
            + (delivery.receivedAtMs() - sentAtMs) + " ms, level " + delayLevel + " is " + delayMs + " ms");
    }

    /** The 4.x TransactionMQProducer: a half message, then END_TRANSACTION commit; consumed once, keys and tag kept. */
    @Test
    void aCommittedTransactionalMessageIsConsumedOnceWithItsKeysAndTag() throws Exception {
        String topic = createTopic("Tx49");
        Received received = new Received();
        clients.pushConsumer(uniqueName("tx49"), topic, "TagA", concurrently(received));
        TransactionMQProducer transactional = new TransactionMQProducer(uniqueName("tx_producer49"));
        transactional.setNamesrvAddr(cluster.namesrvAddr());
        transactional.setInstanceName(uniqueName("tx_producer"));
        transactional.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt message) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        cluster.closeLater(transactional::shutdown);
        transactional.start();
        Message message = message(topic, "TagA", "committed-49");
        message.setKeys("tx-key-49");

        TransactionSendResult result = transactional.sendMessageInTransaction(message, null);

        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, result.getLocalTransactionState(), result.toString());
        received.awaitAll(List.of("committed-49"), RECEIVE_TIMEOUT);
        assertEquals(List.of("committed-49"), received.bodies());
        MessageExt delivered = received.deliveries().get(0).message();
        assertEquals(topic, delivered.getTopic());
        assertEquals("TagA", delivered.getTags());
        assertEquals("tx-key-49", delivered.getKeys());
    }

    @Test
    void aLitePullConsumerAssignedAQueueReadsFromTheSeekedOffset() throws Exception {
        String topic = createTopic("LitePull49");
        MessageQueue queue = new MessageQueue(topic, cluster.brokerName(), 0);
        List<String> bodies = bodies("lite");
        long firstOffset = -1;
        for (String body : bodies) {
            SendResult result = producer.send(message(topic, "TagA", body), queue);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            firstOffset = firstOffset < 0 ? result.getQueueOffset() : firstOffset;
        }
        int seekIndex = 4;
        DefaultLitePullConsumer consumer = clients.litePullConsumer(uniqueName("lite49"));
        consumer.assign(List.of(queue));

        consumer.seek(queue, firstOffset + seekIndex);

        List<MessageExt> pulled = new ArrayList<>();
        Await.until("the messages from the seeked offset on", RECEIVE_TIMEOUT, () -> {
            pulled.addAll(consumer.poll(1_000));
            return pulled.size() >= MESSAGE_COUNT - seekIndex;
        });
        assertEquals(bodies.subList(seekIndex, MESSAGE_COUNT), pulled.stream()
            .map(message -> new String(message.getBody(), StandardCharsets.UTF_8)).toList());
        assertEquals(firstOffset + seekIndex, pulled.get(0).getQueueOffset());
    }

    /** A topic with {@value #QUEUE_COUNT} queues, created through the admin and routed by the NameServer. */
    private static String createTopic(String prefix) throws Exception {
        String topic = uniqueName(prefix);
        admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT,
            PERM_READ_WRITE));
        Await.until("a route for " + topic, ROUTE_TIMEOUT,
            () -> !admin.examineTopicRouteInfo(topic).getQueueDatas().isEmpty());
        return topic;
    }

    private static MessageListenerConcurrently concurrently(Received received) {
        return (messages, context) -> {
            received.add(messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
    }

    private static Message message(String topic, String tag, String body) {
        return new Message(topic, tag, body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> bodies(String label) {
        return IntStream.range(0, MESSAGE_COUNT).mapToObj(index -> label + "-" + index).toList();
    }

    /** The sequence number at the end of an orderly test message's body ("<key>-<sequence>"). */
    private static int sequence(MessageExt message) {
        String body = new String(message.getBody(), StandardCharsets.UTF_8);
        return Integer.parseInt(body.substring(body.lastIndexOf('-') + 1));
    }
}
