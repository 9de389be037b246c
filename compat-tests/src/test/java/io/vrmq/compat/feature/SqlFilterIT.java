package io.vrmq.compat.feature;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.pop.PopConsumers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL92 property filters ({@code MessageSelector.bySql}) through the official 5.5.0 consumers against our broker:
 * push (pull mode), lite pull, the plain pull consumer and the push consumer in POP mode each get exactly the messages
 * whose properties (and {@code TAGS}) match; an expression that does not parse stops the consumer's start with
 * SUBSCRIPTION_PARSE_FAILED (CHECK_CLIENT_CONFIG) and fails a pull that carries it with the same code.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SqlFilterIT {
    private static final int MESSAGE_COUNT = 20;
    /** Matches index 4..11 tagged TagA, i.e. the even ones: 4, 6, 8, 10. */
    private static final String SELECTOR = "TAGS = 'TagA' AND (idx BETWEEN 4 AND 11) AND color IS NOT NULL";
    private static final Set<String> EXPECTED = Set.of("sql-4", "sql-6", "sql-8", "sql-10");
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
        bed = TestBed.start(resources, brokers, dir, "broker-sql");
        producer = bed.clients().producer(uniqueName("sql_producer"));
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
    }

    @Test
    void aPushConsumerGetsOnlyTheMatchingMessages() throws Exception {
        String topic = Topics.create(producer, uniqueName("SqlPush"));
        Received received = new Received();
        String group = uniqueName("sql_push");
        DefaultMQPushConsumer consumer = bed.clients().unstartedPushConsumer(group, topic, "*",
            listener(group, received), c -> { });
        consumer.subscribe(topic, MessageSelector.bySql(SELECTOR));
        consumer.start();
        sendSeries(topic);
        received.awaitAll(EXPECTED, CONSUME_TIMEOUT);
        awaitQuiet();
        assertEquals(new TreeSet<>(EXPECTED), new TreeSet<>(received.bodies()), "delivered");
    }

    @Test
    void aPushConsumerInPopModeGetsOnlyTheMatchingMessages() throws Exception {
        String topic = Topics.create(producer, uniqueName("SqlPop"));
        String group = uniqueName("sql_pop");
        PopConsumers.setPopMode(bed.namesrvAddr(), BrokerSettings.CLUSTER, topic, group);
        Received received = new Received();
        DefaultMQPushConsumer consumer = bed.clients().unstartedPushConsumer(group, topic, "*",
            listener(group, received), c -> PopConsumers.configure(c, PopConsumers.MIN_INVISIBLE_TIME_MS, 8));
        consumer.subscribe(topic, MessageSelector.bySql(SELECTOR));
        consumer.start();
        PopConsumers.awaitPopAssignment(consumer, topic);
        sendSeries(topic);
        received.awaitAll(EXPECTED, CONSUME_TIMEOUT);
        awaitQuiet();
        assertEquals(new TreeSet<>(EXPECTED), new TreeSet<>(received.bodies()), "popped");
    }

    @Test
    void aLitePullConsumerPollsOnlyTheMatchingMessages() throws Exception {
        String topic = Topics.create(producer, uniqueName("SqlLite"));
        sendSeries(topic);
        DefaultLitePullConsumer consumer = bed.clients().litePullConsumer(uniqueName("sql_lite"), c -> {
            c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            try {
                c.subscribe(topic, MessageSelector.bySql(SELECTOR));
            } catch (MQClientException e) {
                throw new IllegalStateException(e);
            }
        });
        Set<String> polled = new TreeSet<>();
        Await.until("the lite pull consumer polled " + EXPECTED, CONSUME_TIMEOUT, () -> {
            for (MessageExt message : consumer.poll(1_000)) {
                polled.add(new String(message.getBody(), StandardCharsets.UTF_8));
            }
            return polled.containsAll(EXPECTED);
        });
        assertEquals(new TreeSet<>(EXPECTED), polled, "polled");
    }

    @Test
    void aPullWithAnSqlSelectorReturnsOnlyMatchesAndABadOneFailsWithParseFailed() throws Exception {
        String topic = Topics.create(producer, uniqueName("SqlPull"));
        MessageQueue queue = new MessageQueue(topic, bed.broker().brokerName(), 0);
        for (int i = 0; i < MESSAGE_COUNT; i++) {
            SendResult result = producer.send(message(topic, i), queue);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
        DefaultMQPullConsumer consumer = bed.clients().pullConsumer(uniqueName("sql_pull"));
        // The client pulls by SQL92 only from a broker whose version it learned from a heartbeat answer (it refuses
        // brokers older than 4.1.0, and an unknown one counts as 0); a fresh pull consumer has not sent one yet.
        MQClientInstance client = consumer.getDefaultMQPullConsumerImpl().getRebalanceImpl().getmQClientFactory();
        client.updateTopicRouteInfoFromNameServer(topic);
        client.sendHeartbeatToAllBrokerWithLock();
        List<String> pulled = new ArrayList<>();
        long offset = 0;
        while (offset < MESSAGE_COUNT + 1) {
            PullResult result = consumer.pull(queue, MessageSelector.bySql(SELECTOR), offset, 32);
            if (result.getPullStatus() == PullStatus.FOUND) {
                result.getMsgFoundList().forEach(m -> pulled.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            }
            if (result.getNextBeginOffset() == offset) {
                break;
            }
            offset = result.getNextBeginOffset();
        }
        assertEquals(List.of("sql-4", "sql-6", "sql-8", "sql-10"), pulled, "pulled in queue order");

        MQBrokerException refused = assertThrows(MQBrokerException.class,
            () -> consumer.pull(queue, MessageSelector.bySql("idx >"), 0, 32));
        assertEquals(ResponseCode.SUBSCRIPTION_PARSE_FAILED, refused.getResponseCode(), refused.toString());
    }

    @Test
    void aConsumerWithAnExpressionThatDoesNotParseFailsToStart() throws Exception {
        String topic = Topics.create(producer, uniqueName("SqlBad"));
        String group = uniqueName("sql_bad");
        DefaultMQPushConsumer consumer = bed.clients().unstartedPushConsumer(group, topic, "*",
            listener(group, new Received()), c -> { });
        consumer.subscribe(topic, MessageSelector.bySql("idx > 'x' AND"));
        MQClientException refused = assertThrows(MQClientException.class, consumer::start);
        assertEquals(ResponseCode.SUBSCRIPTION_PARSE_FAILED, rootResponseCode(refused), refused.toString());
    }

    private static int rootResponseCode(MQClientException error) {
        Throwable at = error;
        while (at != null) {
            if (at instanceof MQClientException client && client.getResponseCode() > 0) {
                return client.getResponseCode();
            }
            at = at.getCause();
        }
        return -1;
    }

    private static Message message(String topic, int index) {
        Message message = new Message(topic, index % 2 == 0 ? "TagA" : "TagB",
            ("sql-" + index).getBytes(StandardCharsets.UTF_8));
        message.putUserProperty("idx", Integer.toString(index));
        if (index != 12) {
            message.putUserProperty("color", index % 3 == 0 ? "red" : "blue");
        }
        return message;
    }

    private static void sendSeries(String topic) throws Exception {
        for (int i = 0; i < MESSAGE_COUNT; i++) {
            SendResult result = producer.send(message(topic, i));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
    }

    /** A few seconds more for anything that should not arrive (no sleep-as-synchronisation: bounded wait). */
    private static void awaitQuiet() {
        long until = System.currentTimeMillis() + 3_000;
        Await.until("3 s after the last expected delivery", Duration.ofSeconds(10),
            () -> System.currentTimeMillis() >= until);
    }

    private static MessageListenerConcurrently listener(String group, Received received) {
        return (messages, context) -> {
            received.add(group, messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
    }
}
