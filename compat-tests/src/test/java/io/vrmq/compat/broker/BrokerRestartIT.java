package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.assertEachReceivedOnceIntact;
import static io.vrmq.compat.broker.support.TestMessages.bodies;
import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.Offsets;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our broker restarted on the same store: after a clean stop (SIGTERM) its topics, groups, consumer offsets and
 * messages are all back; after SIGKILL under SYNC_FLUSH, in the middle of a producer's sends, every message the
 * producer got SEND_OK for is readable where the send result said it was. One NameServer serves the class; each
 * test has its own broker and store.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerRestartIT {

    private static final int CONSUMED_BEFORE = 10;
    private static final int UNCONSUMED = 6;
    /** Acknowledged sends before the SIGKILL; the producer keeps sending while the broker dies. */
    private static final int ACKNOWLEDGED_BEFORE_KILL = 200;
    private static final long SEND_TIMEOUT_MS = 3_000;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static BrokerClients clients;

    @BeforeAll
    static void startNameServer() {
        nameServer = resources.nameServer(dir.resolve("namesrv"), NameServerSettings.defaults(dir.resolve("namesrv")));
        clients = new BrokerClients(resources, nameServer.address());
    }

    @Test
    void afterACleanRestartTheTopicsGroupsOffsetsAndMessagesAreAllThere() throws Exception {
        VrmqBroker broker = brokers.start(BrokerSettings.defaults("broker-restart-clean", nameServer.address(),
            dir.resolve("broker-clean")));
        DefaultMQProducer producer = clients.producer(uniqueName("restart_producer"));
        String topic = Topics.create(producer, uniqueName("Restart"));
        String group = uniqueName("restart_group");
        List<Message> consumed = send(producer, series(topic, "consumed", "TagA", CONSUMED_BEFORE));
        Received before = new Received();
        DefaultMQPushConsumer consumer = consumer(group, topic, before);
        before.awaitAll(bodies(consumed), RECEIVE_TIMEOUT);
        Offsets.awaitConsumedToTheEnd(consumer, topic, RECEIVE_TIMEOUT);
        consumer.shutdown();
        List<Message> unconsumed = send(producer, series(topic, "unconsumed", "TagA", UNCONSUMED));

        broker.stop();
        broker.start();

        DefaultMQAdminExt admin = clients.admin();
        TopicRouteData route = awaitRoute(admin, topic);
        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, route.getQueueDatas().get(0).getWriteQueueNums(),
            "queues of " + topic + " after the restart: " + route);
        awaitRoute(admin, MixAll.getRetryTopic(group));
        List<Message> all = new ArrayList<>(consumed);
        all.addAll(unconsumed);
        TopicReader reader = new TopicReader(clients.pullConsumer(uniqueName("restart_reader")));
        List<MessageExt> stored = reader.readAll(topic, all.size() + 1, RECEIVE_TIMEOUT).stream()
            .filter(message -> !Topics.CREATE_TAG.equals(message.getTags())).toList();
        assertEachReceivedOnceIntact(all, stored);
        Received after = new Received();
        consumer(group, topic, after);
        after.awaitAll(bodies(unconsumed), RECEIVE_TIMEOUT);
        assertEquals(Set.copyOf(bodies(unconsumed)), after.distinctBodies(), "what the group consumes after the"
            + " restart");
    }

    @Test
    void afterASigkillUnderSyncFlushEveryAcknowledgedMessageIsReadableWhereItsResultSaid() throws Exception {
        VrmqBroker broker = brokers.start(BrokerSettings.defaults("broker-restart-kill", nameServer.address(),
            dir.resolve("broker-kill")).withFlushDiskType("SYNC_FLUSH"));
        DefaultMQProducer producer = clients.producer(uniqueName("kill_producer"));
        producer.setRetryTimesWhenSendFailed(0);
        producer.setSendMsgTimeout((int) SEND_TIMEOUT_MS);
        String topic = Topics.create(producer, uniqueName("Kill"));
        List<SendResult> acknowledged = new CopyOnWriteArrayList<>();
        AtomicBoolean isSending = new AtomicBoolean(true);
        ExecutorService sender = Executors.newSingleThreadExecutor();
        resources.closeLater(sender::shutdownNow);
        Future<Exception> sendingStopped = sender.submit(() -> sendUntilFailure(producer, topic, isSending,
            acknowledged));

        Await.until(ACKNOWLEDGED_BEFORE_KILL + " acknowledged sends", RECEIVE_TIMEOUT,
            () -> acknowledged.size() >= ACKNOWLEDGED_BEFORE_KILL || sendingStopped.isDone());
        broker.kill();
        Exception sendFailure = sendingStopped.get(SEND_TIMEOUT_MS * 3, TimeUnit.MILLISECONDS);
        isSending.set(false);
        broker.start();

        assertTrue(acknowledged.size() >= ACKNOWLEDGED_BEFORE_KILL, "sends acknowledged before the kill: "
            + acknowledged.size() + ", then " + sendFailure);
        TopicReader reader = new TopicReader(clients.pullConsumer(uniqueName("kill_reader")));
        Map<String, MessageExt> stored = reader.readAll(topic, acknowledged.size(), RECEIVE_TIMEOUT).stream()
            .collect(Collectors.toMap(MessageExt::getMsgId, Function.identity(), (first, second) -> first));
        List<String> lost = new ArrayList<>();
        for (SendResult result : acknowledged) {
            MessageExt message = stored.get(result.getMsgId());
            if (message == null || message.getQueueId() != result.getMessageQueue().getQueueId()
                || message.getQueueOffset() != result.getQueueOffset()) {
                lost.add(result.getMsgId() + " (queue " + result.getMessageQueue().getQueueId() + " offset "
                    + result.getQueueOffset() + ", found " + message + ")");
            }
        }
        assertEquals(List.of(), lost, "acknowledged messages missing after the restart, of " + acknowledged.size()
            + "; sending ended with " + sendFailure);
    }

    /** Sends one message after another until a send fails or {@code isSending} is cleared; returns the failure. */
    private static Exception sendUntilFailure(DefaultMQProducer producer, String topic, AtomicBoolean isSending,
                                              List<SendResult> acknowledged) {
        for (int index = 0; isSending.get(); index++) {
            try {
                SendResult result = producer.send(new Message(topic, "TagA", ("kill-" + index)
                    .getBytes(StandardCharsets.UTF_8)));
                if (result.getSendStatus() == SendStatus.SEND_OK) {
                    acknowledged.add(result);
                }
            } catch (Exception e) {
                return e;
            }
        }
        return null;
    }

    private static TopicRouteData awaitRoute(DefaultMQAdminExt admin, String topic) {
        TopicRouteData[] route = new TopicRouteData[1];
        Await.until("a route for " + topic, ROUTE_TIMEOUT, () -> {
            route[0] = admin.examineTopicRouteInfo(topic);
            return !route[0].getQueueDatas().isEmpty();
        });
        return route[0];
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
        return clients.pushConsumer(group, topic, "TagA", listener, consumer -> { });
    }
}
