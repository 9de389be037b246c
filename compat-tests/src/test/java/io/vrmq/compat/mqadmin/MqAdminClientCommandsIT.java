package io.vrmq.compat.mqadmin;

import static io.vrmq.compat.broker.support.TestMessages.bodies;
import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static io.vrmq.compat.mqadmin.MqAdmin.Output.columns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
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
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official mqadmin's client and group commands (consumerProgress, consumerConnection, producerConnection,
 * updateSubGroup, resetOffsetByTime) against our NameServer and broker, with a producer and a push consumer online,
 * each run through {@code MQAdminStartup} with {@code -n <our NameServer>}: what it prints, and what it changed.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MqAdminClientCommandsIT {

    private static final String BROKER_NAME = "broker-mqadmin-clients";
    private static final int MESSAGE_COUNT = 12;
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(30);
    /**
     * A push consumer commits its offsets every persistConsumerOffsetInterval (5 s), the first time 10 s after its
     * start; the waits for a commit ask it to commit now (persistConsumerOffset), as that task would.
     */
    private static final Duration OFFSET_COMMIT_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;
    private static String producerGroup;
    /** Consumed to the end by {@link #consumer}, which stays online. */
    private static String topic;
    private static String group;
    private static DefaultMQPushConsumer consumer;

    @BeforeAll
    static void startBrokerAProducerAndAConsumerThatConsumedEverything() throws Exception {
        bed = TestBed.start(resources, brokers, dir, BROKER_NAME);
        admin = bed.clients().admin();
        producerGroup = uniqueName("mqadmin_producer");
        producer = bed.clients().producer(producerGroup);
        topic = Topics.create(producer, uniqueName("MqadminClients"));
        group = uniqueName("mqadmin_consumer");
        Received received = new Received();
        consumer = startConsumer(group, topic, received);
        List<String> sent = send(topic, "progress");
        received.awaitAll(sent, RECEIVE_TIMEOUT);
        awaitCommittedToTheEnd(consumer, group, topic);
    }

    @Test
    void consumerProgressOfAGroupPrintsEachQueueWithNoLagLeft() {
        MqAdmin.Output output = mqadmin("consumerProgress", "-g", group).assertSucceeded();

        List<String> queueLines = output.linesWith(topic, BROKER_NAME);
        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, queueLines.size(), output.toString());
        long brokerOffsetTotal = 0;
        for (String line : queueLines) {
            List<String> columns = columns(line);
            assertEquals(columns.get(3), columns.get(4), "consumer offset = broker offset: " + line);
            brokerOffsetTotal += Long.parseLong(columns.get(3));
        }
        assertEquals(MESSAGE_COUNT + 1, brokerOffsetTotal, "the topic's messages, the creating one included:\n"
            + output);
        output.lineWith("Consume Diff Total: 0");
    }

    @Test
    void consumerProgressWithClientIpNamesTheClientThatOwnsEachQueue() {
        String clientIp = consumer.buildMQClientId().split("@")[0];

        MqAdmin.Output output = mqadmin("consumerProgress", "-g", group, "-s", "true").assertSucceeded();

        List<String> queueLines = output.linesWith(topic, BROKER_NAME);
        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, queueLines.size(), output.toString());
        for (String line : queueLines) {
            assertEquals(clientIp, columns(line).get(5), "#Client IP of " + line + " (from the consumer's running"
                + " info, which the broker fetches from the client):\n" + output);
        }
    }

    @Test
    void consumerProgressWithoutAGroupListsTheOnlineGroupWithItsModel() {
        MqAdmin.Output output = mqadmin("consumerProgress").assertSucceeded();

        List<String> columns = columns(output.lineWith(group));
        assertEquals(List.of(group, "1"), columns.subList(0, 2), output.toString());
        assertTrue(output.lineWith(group).contains("PUSH"), output.toString());
        assertTrue(output.lineWith(group).contains("CLUSTERING"), output.toString());
    }

    /** Beyond the issue's list: consumerStatus, producer and brokerConsumeStats (307, 328, 317). */
    @Test
    void consumerStatusOfAClientPrintsTheRunningInfoTheBrokerFetchedFromIt() {
        MqAdmin.Output output = mqadmin("consumerStatus", "-g", group, "-i", consumer.buildMQClientId())
            .assertSucceeded();

        output.lineWith("#Consumer Subscription#");
        output.lineWith("#Consumer MQ Detail#");
        assertEquals(2 * Topics.AUTO_CREATED_QUEUE_COUNT, output.linesWith(topic, BROKER_NAME).size(),
            "each owned queue once in the offset and once in the MQ detail section:\n" + output);
    }

    @Test
    void consumerStatusOfAClientNotInTheGroupFailsWithTheBrokersNotOnlineRemark() {
        String unknownClient = "127.0.0.1@no-such-client";

        MqAdmin.Output output = mqadmin("consumerStatus", "-g", group, "-i", unknownClient);

        assertTrue(output.stderr().contains("CODE: 1  DESC: The Consumer <" + group + "> <" + unknownClient
            + "> not online"), output.toString());
    }

    @Test
    void producerPrintsEachProducerGroupWithItsClients() {
        MqAdmin.Output output = mqadmin("producer", "-b", bed.broker().address()).assertSucceeded();

        String line = output.lineWith("producer group (" + producerGroup + ")");
        assertTrue(line.contains("clientId=" + producer.buildMQClientId() + ","), output.toString());
        assertTrue(line.contains("remoteIP=/127.0.0.1:"), output.toString());
        assertTrue(line.contains("language=JAVA"), output.toString());
    }

    @Test
    void brokerConsumeStatsPrintsTheProgressOfEveryGroupOnEachQueue() {
        MqAdmin.Output output = mqadmin("brokerConsumeStats", "-b", bed.broker().address()).assertSucceeded();

        List<String> queueLines = output.linesWith(topic, group, BROKER_NAME);
        assertFalse(queueLines.isEmpty(), "queues whose messages the group consumed:\n" + output);
        for (String line : queueLines) {
            List<String> columns = columns(line);
            assertEquals(columns.get(4), columns.get(5), "consumer offset = broker offset: " + line);
        }
    }

    @Test
    void consumerConnectionPrintsTheClientItsSubscriptionAndConsumeType() {
        MqAdmin.Output output = mqadmin("consumerConnection", "-g", group).assertSucceeded();

        List<String> client = columns(output.lineWith(consumer.buildMQClientId()));
        assertEquals("JAVA", client.get(2), output.toString());
        assertEquals(List.of(topic, "*"), columns(output.lineWith(topic)), output.toString());
        output.lineWith("ConsumeType: CONSUME_PASSIVELY");
        output.lineWith("MessageModel: CLUSTERING");
        output.lineWith("ConsumeFromWhere: CONSUME_FROM_FIRST_OFFSET");
    }

    @Test
    void producerConnectionPrintsTheProducerClient() {
        MqAdmin.Output output = mqadmin("producerConnection", "-g", producerGroup, "-t", topic).assertSucceeded();

        List<String> columns = columns(output.lineWith(producer.buildMQClientId()));
        assertEquals("0001", columns.get(0), output.toString());
        assertEquals("JAVA", columns.get(3), output.toString());
    }

    @Test
    void updateSubGroupCreatesTheGroupWithTheGivenSettings() throws Exception {
        String newGroup = uniqueName("mqadmin_subgroup");

        MqAdmin.Output output = mqadmin("updateSubGroup", "-b", bed.broker().address(), "-g", newGroup, "-r", "5",
            "-d", "true").assertSucceeded();

        output.lineWith("create subscription group to " + bed.broker().address() + " success.");
        SubscriptionGroupConfig config = admin.examineSubscriptionGroupConfig(bed.broker().address(), newGroup);
        assertEquals(5, config.getRetryMaxTimes(), config.toString());
        assertTrue(config.isConsumeBroadcastEnable(), config.toString());
    }

    @Test
    void updateSubGroupOnAClusterCreatesTheGroupOnItsMaster() throws Exception {
        String newGroup = uniqueName("mqadmin_subgroup_cluster");

        MqAdmin.Output output = mqadmin("updateSubGroup", "-c", BrokerSettings.CLUSTER, "-g", newGroup, "-s",
            "false").assertSucceeded();

        output.lineWith("create subscription group to " + bed.broker().address() + " success.");
        SubscriptionGroupConfig config = admin.examineSubscriptionGroupConfig(bed.broker().address(), newGroup);
        assertFalse(config.isConsumeEnable(), config.toString());
    }

    @Test
    void resetOffsetByTimeRewindsAnOnlineGroupWhichConsumesEverythingAgain() throws Exception {
        String resetTopic = Topics.create(producer, uniqueName("MqadminResetOnline"));
        String resetGroup = uniqueName("mqadmin_reset_online");
        Received received = new Received();
        DefaultMQPushConsumer resetConsumer = startConsumer(resetGroup, resetTopic, received);
        List<String> sent = send(resetTopic, "reset-online");
        received.awaitAll(sent, RECEIVE_TIMEOUT);
        awaitCommittedToTheEnd(resetConsumer, resetGroup, resetTopic);
        int deliveredBefore = received.size();

        MqAdmin.Output output = mqadmin("resetOffsetByTime", "-g", resetGroup, "-t", resetTopic, "-s", "0")
            .assertSucceeded();

        List<String> queueLines = output.linesWith(BROKER_NAME);
        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, queueLines.size(), output.toString());
        queueLines.forEach(line -> assertEquals("0", columns(line).get(2), "offset of " + line + ":\n" + output));
        Await.until("every message of " + resetTopic + " delivered again after the reset", RECEIVE_TIMEOUT,
            () -> received.size() >= deliveredBefore + sent.size());
    }

    @Test
    void resetOffsetByTimeRewindsTheCommittedOffsetsOfAnOfflineGroup() throws Exception {
        String resetTopic = Topics.create(producer, uniqueName("MqadminResetOffline"));
        String resetGroup = uniqueName("mqadmin_reset_offline");
        Received received = new Received();
        DefaultMQPushConsumer resetConsumer = startConsumer(resetGroup, resetTopic, received);
        received.awaitAll(send(resetTopic, "reset-offline"), RECEIVE_TIMEOUT);
        resetConsumer.shutdown();    // commits its offsets, then leaves the group
        awaitCommittedToTheEnd(null, resetGroup, resetTopic);

        MqAdmin.Output output = mqadmin("resetOffsetByTime", "-g", resetGroup, "-t", resetTopic, "-s", "0")
            .assertSucceeded();

        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, output.linesWith(BROKER_NAME).size(), output.toString());
        ConsumeStats stats = admin.examineConsumeStats(resetGroup, resetTopic);
        stats.getOffsetTable().forEach((queue, offsets) -> assertEquals(0, offsets.getConsumerOffset(),
            "consumer offset of " + queue + " after the reset"));
        assertEquals(MESSAGE_COUNT + 1, stats.computeTotalDiff(), "lag after the reset: " + stats.getOffsetTable());
    }

    private static MqAdmin.Output mqadmin(String command, String... arguments) {
        return MqAdmin.run(bed.namesrvAddr(), command, arguments);
    }

    private static DefaultMQPushConsumer startConsumer(String consumerGroup, String consumedTopic, Received received)
        throws Exception {
        DefaultMQPushConsumer started = bed.clients().pushConsumer(consumerGroup, consumedTopic, "*",
            (MessageListenerConcurrently) (messages, context) -> {
                received.add(consumerGroup, messages);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            }, unstarted -> { });
        Topics.awaitOwnedQueues(started, consumedTopic, Topics.AUTO_CREATED_QUEUE_COUNT);
        return started;
    }

    /** Sends {@value #MESSAGE_COUNT} messages round-robin over the topic's queues; returns their bodies. */
    private static List<String> send(String sendTopic, String label) throws Exception {
        List<Message> messages = series(sendTopic, label, "TagA", MESSAGE_COUNT);
        for (int index = 0; index < messages.size(); index++) {
            MessageQueue queue = new MessageQueue(sendTopic, BROKER_NAME, index % Topics.AUTO_CREATED_QUEUE_COUNT);
            SendResult result = producer.send(messages.get(index), queue);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
        return bodies(messages);
    }

    /** Waits until the broker holds the group's offsets at the topic's end; {@code online}: its consumer or null. */
    private static void awaitCommittedToTheEnd(DefaultMQPushConsumer online, String consumerGroup,
                                               String consumedTopic) {
        Await.until("group " + consumerGroup + " committed to the end of " + consumedTopic, OFFSET_COMMIT_TIMEOUT,
            () -> {
                if (online != null) {
                    online.getDefaultMQPushConsumerImpl().persistConsumerOffset();
                }
                ConsumeStats stats = admin.examineConsumeStats(consumerGroup, consumedTopic);
                return stats.getOffsetTable().size() == Topics.AUTO_CREATED_QUEUE_COUNT
                    && stats.computeTotalDiff() == 0;
            });
    }
}
