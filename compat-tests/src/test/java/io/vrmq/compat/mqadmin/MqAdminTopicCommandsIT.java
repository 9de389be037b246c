package io.vrmq.compat.mqadmin;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static io.vrmq.compat.mqadmin.MqAdmin.Output.columns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official mqadmin's topic, cluster and broker commands (updateTopic, deleteTopic, topicList, topicRoute,
 * topicStatus, clusterList, brokerStatus, getBrokerConfig) against our NameServer and broker, each run through
 * {@code MQAdminStartup} with {@code -n <our NameServer>}: what it prints, and what it changed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MqAdminTopicCommandsIT {

    private static final String BROKER_NAME = "broker-mqadmin-topics";
    private static final int QUEUE_COUNT = 4;
    private static final int PERM_READ_WRITE = 6;
    private static final int MESSAGES_PER_QUEUE = 3;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void startNameServerBrokerAdminAndProducer() throws Exception {
        bed = TestBed.start(resources, brokers, dir, BROKER_NAME);
        admin = bed.clients().admin();
        producer = bed.clients().producer(uniqueName("mqadmin_topic_producer"));
    }

    @Test
    void updateTopicOnABrokerCreatesTheTopicWithTheGivenQueues() throws Exception {
        String topic = uniqueName("MqadminUpdateByBroker");

        MqAdmin.Output output = mqadmin("updateTopic", "-b", brokerAddr(), "-t", topic, "-r", "3", "-w", "3")
            .assertSucceeded();

        output.lineWith("create topic to " + brokerAddr() + " success.");
        TopicConfig config = admin.examineTopicConfig(brokerAddr(), topic);
        assertEquals(3, config.getReadQueueNums(), config.toString());
        assertEquals(3, config.getWriteQueueNums(), config.toString());
        awaitRouteQueues(topic, 3);
    }

    @Test
    void updateTopicOnAClusterCreatesTheTopicOnEveryMasterOfTheCluster() throws Exception {
        String topic = uniqueName("MqadminUpdateByCluster");

        MqAdmin.Output output = mqadmin("updateTopic", "-c", BrokerSettings.CLUSTER, "-t", topic).assertSucceeded();

        output.lineWith("create topic to " + brokerAddr() + " success.");
        TopicConfig config = admin.examineTopicConfig(brokerAddr(), topic);
        assertEquals(8, config.getWriteQueueNums(), "the tool's default queue count: " + config);
        awaitRouteQueues(topic, 8);
    }

    @Test
    void deleteTopicRemovesTheTopicFromTheBrokerAndTheNameServer() throws Exception {
        String topic = createTopic("MqadminDelete");

        MqAdmin.Output output = mqadmin("deleteTopic", "-c", BrokerSettings.CLUSTER, "-t", topic).assertSucceeded();

        output.lineWith("delete topic [" + topic + "] from cluster [" + BrokerSettings.CLUSTER + "] success.");
        output.lineWith("delete topic [" + topic + "] from NameServer success.");
        assertFalse(admin.fetchAllTopicList().getTopicList().contains(topic), "topic list still has " + topic);
        assertThrows(MQClientException.class, () -> admin.examineTopicRouteInfo(topic), "route of " + topic);
        assertFalse(admin.getUserTopicConfig(brokerAddr(), false, 5_000).getTopicConfigTable().containsKey(topic),
            "broker still has the config of " + topic);
    }

    @Test
    void topicListPrintsEveryTopicOfTheNameServer() throws Exception {
        String topic = createTopic("MqadminList");

        MqAdmin.Output output = mqadmin("topicList").assertSucceeded();

        assertTrue(output.lines().contains(topic), output.toString());
        assertTrue(output.lines().contains("TBW102"), output.toString());
    }

    @Test
    void topicListWithClusterPrintsTheClusterOfEachTopic() throws Exception {
        String topic = createTopic("MqadminListCluster");

        MqAdmin.Output output = mqadmin("topicList", "-c").assertSucceeded();

        List<String> columns = columns(output.lineWith(topic));
        assertEquals(BrokerSettings.CLUSTER, columns.get(0), output.toString());
    }

    @Test
    void topicRoutePrintsTheBrokerAndQueuesOfTheTopic() throws Exception {
        String topic = createTopic("MqadminRoute");

        MqAdmin.Output output = mqadmin("topicRoute", "-t", topic, "-l").assertSucceeded();

        List<String> columns = columns(output.lineWith(BROKER_NAME));
        assertEquals(BrokerSettings.CLUSTER, columns.get(0), output.toString());
        assertEquals("{0=" + brokerAddr() + "}", columns.get(2), output.toString());
        assertEquals(List.of("4", "4", Integer.toString(PERM_READ_WRITE)), columns.subList(3, 6), output.toString());
    }

    @Test
    void topicRouteAsJsonHasTheBrokerAddress() throws Exception {
        String topic = createTopic("MqadminRouteJson");

        MqAdmin.Output output = mqadmin("topicRoute", "-t", topic).assertSucceeded();

        // The tool's own log lines (its console appender) may come before the JSON document.
        String json = output.stdout().substring(output.stdout().indexOf("{\n"));
        TopicRouteData route = TopicRouteData.fromJson(json, TopicRouteData.class);
        assertEquals(brokerAddr(), route.getBrokerDatas().get(0).getBrokerAddrs().get(0L), output.toString());
        assertEquals(QUEUE_COUNT, route.getQueueDatas().get(0).getWriteQueueNums(), output.toString());
    }

    @Test
    void topicStatusPrintsTheMinAndMaxOffsetOfEachQueue() throws Exception {
        String topic = createTopic("MqadminStatus");
        for (int queueId = 0; queueId < QUEUE_COUNT; queueId++) {
            for (int count = 0; count < MESSAGES_PER_QUEUE; count++) {
                send(new MessageQueue(topic, BROKER_NAME, queueId), "status-" + count);
            }
        }

        MqAdmin.Output output = mqadmin("topicStatus", "-t", topic).assertSucceeded();

        List<String> queueLines = output.linesWith(BROKER_NAME);
        assertEquals(QUEUE_COUNT, queueLines.size(), output.toString());
        for (int queueId = 0; queueId < QUEUE_COUNT; queueId++) {
            List<String> columns = columns(queueLines.get(queueId));
            assertEquals(List.of(Integer.toString(queueId), "0", Integer.toString(MESSAGES_PER_QUEUE)),
                columns.subList(1, 4), output.toString());
            assertTrue(columns.size() > 4, "a last-updated time for queue " + queueId + ":\n" + output);
        }
    }

    @Test
    void clusterListPrintsOurBrokerAsAnActiveMaster() {
        MqAdmin.Output output = mqadmin("clusterList").assertSucceeded();

        List<String> columns = columns(output.lineWith(BROKER_NAME));
        assertEquals(List.of(BrokerSettings.CLUSTER, BROKER_NAME, "0", brokerAddr()), columns.subList(0, 4),
            output.toString());
        assertTrue(columns.get(4).startsWith("V"), "a version column: " + output);
        assertEquals("true", columns.get(columns.size() - 1), "#ACTIVATED: " + output);
    }

    @Test
    void brokerStatusPrintsTheRuntimeStatsOfTheBroker() {
        MqAdmin.Output output = mqadmin("brokerStatus", "-b", brokerAddr()).assertSucceeded();

        assertTrue(value(output, "brokerVersionDesc").startsWith("V"), output.toString());
        assertTrue(value(output, "putTps").matches("[0-9.]+ [0-9.]+ [0-9.]+"), output.toString());
        assertTrue(Long.parseLong(value(output, "bootTimestamp")) > 0, output.toString());
    }

    @Test
    void brokerStatusOfAClusterPrefixesEachLineWithTheBrokerAddress() {
        MqAdmin.Output output = mqadmin("brokerStatus", "-c", BrokerSettings.CLUSTER).assertSucceeded();

        String line = output.lineWith("msgPutTotalTodayNow");
        assertEquals(brokerAddr(), columns(line).get(0), output.toString());
    }

    @Test
    void getBrokerConfigPrintsTheBrokerSettings() {
        MqAdmin.Output output = mqadmin("getBrokerConfig", "-b", brokerAddr()).assertSucceeded();

        output.lineWith("============" + brokerAddr() + "============");
        assertEquals(BROKER_NAME, value(output, "brokerName"), output.toString());
        assertEquals(BrokerSettings.CLUSTER, value(output, "brokerClusterName"), output.toString());
        assertEquals(bed.namesrvAddr(), value(output, "namesrvAddr"), output.toString());
    }

    @Test
    void getBrokerConfigOfAClusterPrintsTheConfigOfItsMaster() {
        MqAdmin.Output output = mqadmin("getBrokerConfig", "-c", BrokerSettings.CLUSTER).assertSucceeded();

        output.lineWith("============Master: " + brokerAddr() + "============");
        assertEquals(Integer.toString(bed.broker().listenPort()), value(output, "listenPort"), output.toString());
    }

    private static MqAdmin.Output mqadmin(String command, String... arguments) {
        return MqAdmin.run(bed.namesrvAddr(), command, arguments);
    }

    private static String brokerAddr() {
        return bed.broker().address();
    }

    /** A topic with {@value #QUEUE_COUNT} queues, created through the admin API and routed by the NameServer. */
    private static String createTopic(String prefix) throws Exception {
        String topic = uniqueName(prefix);
        admin.createAndUpdateTopicConfig(brokerAddr(), new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT,
            PERM_READ_WRITE));
        awaitRouteQueues(topic, QUEUE_COUNT);
        return topic;
    }

    private static void awaitRouteQueues(String topic, int queueCount) {
        Await.until("a route with " + queueCount + " queues for " + topic, ROUTE_TIMEOUT,
            () -> admin.examineTopicRouteInfo(topic).getQueueDatas().get(0).getWriteQueueNums() == queueCount);
    }

    private static void send(MessageQueue queue, String body) throws Exception {
        SendResult result = producer.send(new Message(queue.getTopic(), body.getBytes(StandardCharsets.UTF_8)),
            queue);
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
    }

    /** The value of a "key : value" or "key = value" line (brokerStatus, getBrokerConfig). */
    private static String value(MqAdmin.Output output, String key) {
        return output.lines().stream()
            .map(line -> line.split("\\s*[:=]\\s+", 2))
            .filter(parts -> parts.length == 2 && parts[0].trim().equals(key))
            .map(parts -> parts[1].trim())
            .findFirst()
            .orElseThrow(() -> new AssertionError("no line for " + key + " in\n" + output));
    }
}
