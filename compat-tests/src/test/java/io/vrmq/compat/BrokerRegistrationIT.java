package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.ApacheBroker;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Apache RocketMQ 5.5.0 broker registers with our NameServer, and the official admin, producer and consumer
 * find it through ours. One NameServer and one broker serve the whole class.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerRegistrationIT {

    private static final String CLUSTER = "CompatCluster";
    private static final String BROKER = "broker-compat-a";
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(60);
    private static final int QUEUE_COUNT = 4;
    private static final int PERM_READ_WRITE = 6;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static ApacheBroker broker;
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void startNameServerBrokerAndAdmin() throws Exception {
        nameServer = resources.nameServer(dir.resolve("namesrv"), NameServerSettings.defaults(dir.resolve("namesrv")));
        broker = resources.broker(dir.resolve("broker"), CLUSTER, BROKER, List.of(nameServer));
        admin = OfficialClients.admin(nameServer.address());
        resources.closeClientLater(admin::shutdown);
    }

    @Test
    void theAdminListsTheRegisteredBrokerUnderItsClusterWithItsAddress() throws Exception {
        ClusterInfo clusterInfo = admin.examineBrokerClusterInfo();

        assertEquals(Set.of(BROKER), clusterInfo.getClusterAddrTable().get(CLUSTER), "brokers of " + CLUSTER);
        BrokerData brokerData = clusterInfo.getBrokerAddrTable().get(BROKER);
        assertEquals(CLUSTER, brokerData.getCluster());
        assertEquals(broker.address(), brokerData.getBrokerAddrs().get(0L), "master address");
    }

    @Test
    void aTopicCreatedOnTheBrokerAppearsInTheTopicListAndHasARoute() throws Exception {
        String topic = "CompatTopicListed";
        createTopic(topic);

        Await.until(topic + " in fetchAllTopicList", ROUTE_TIMEOUT,
            () -> admin.fetchAllTopicList().getTopicList().contains(topic));
        TopicRouteData route = admin.examineTopicRouteInfo(topic);
        assertEquals(1, route.getQueueDatas().size(), "queue datas: " + route);
        QueueData queueData = route.getQueueDatas().get(0);
        assertEquals(BROKER, queueData.getBrokerName());
        assertEquals(QUEUE_COUNT, queueData.getReadQueueNums());
        assertEquals(QUEUE_COUNT, queueData.getWriteQueueNums());
        assertEquals(PERM_READ_WRITE, queueData.getPerm());
        assertEquals(broker.address(), route.getBrokerDatas().get(0).getBrokerAddrs().get(0L));
    }

    @Test
    void theRouteOfAnUnknownTopicIsAnsweredWithTopicNotExist() {
        MQClientException failure = assertThrows(MQClientException.class,
            () -> admin.examineTopicRouteInfo("CompatTopicNobodyCreated"));

        assertEquals(ResponseCode.TOPIC_NOT_EXIST, failure.getResponseCode(), failure.toString());
    }

    @Test
    void aProducerSendsAndAPushConsumerReceivesThroughRoutesFromOurNameServer() throws Exception {
        String topic = "CompatTopicSendReceive";
        createTopic(topic);
        Await.until("a route for " + topic, ROUTE_TIMEOUT, () -> admin.examineTopicRouteInfo(topic) != null);
        DefaultMQProducer producer = OfficialClients.producer(nameServer.address(), "compat_producer_group");
        resources.closeClientLater(producer::shutdown);
        List<String> sent = List.of("first", "second", "third");
        for (String body : sent) {
            SendResult result = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }

        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("compat_consumer_group");
        consumer.setNamesrvAddr(nameServer.address());
        consumer.setInstanceName(OfficialClients.uniqueInstanceName("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(message -> received.add(new String(message.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        resources.closeClientLater(consumer::shutdown);

        Set<String> bodies = new HashSet<>();
        while (bodies.size() < sent.size()) {
            String body = received.poll(RECEIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            assertNotNull(body, "received " + bodies + " of " + sent + ", then nothing for " + RECEIVE_TIMEOUT);
            bodies.add(body);
        }
        assertEquals(Set.copyOf(sent), bodies);
    }

    private static void createTopic(String topic) throws Exception {
        admin.createAndUpdateTopicConfig(broker.address(),
            new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT, PERM_READ_WRITE));
    }
}
