package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.ApacheBroker;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two of our NameServers behind one broker (namesrvAddr "a;b"), the way RocketMQ is deployed for availability: when
 * one stops, the official clients route through the other. The second test stops NameServer a, so order matters.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoNameServersIT {

    private static final String CLUSTER = "CompatPairCluster";
    private static final String BROKER = "broker-compat-pair";
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(20);
    private static final int QUEUE_COUNT = 4;
    private static final int PERM_READ_WRITE = 6;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServerA;
    private static RunningNameServer nameServerB;
    private static ApacheBroker broker;

    @BeforeAll
    static void startTwoNameServersAndABrokerRegisteringWithBoth() {
        Path dirA = dir.resolve("namesrv-a");
        Path dirB = dir.resolve("namesrv-b");
        nameServerA = resources.nameServer(dirA, NameServerSettings.defaults(dirA));
        nameServerB = resources.nameServer(dirB, NameServerSettings.defaults(dirB));
        broker = resources.broker(dir.resolve("broker"), CLUSTER, BROKER, List.of(nameServerA, nameServerB));
    }

    @Test
    @Order(1)
    void theBrokerIsRegisteredWithBothNameServers() throws Exception {
        for (RunningNameServer nameServer : List.of(nameServerA, nameServerB)) {
            DefaultMQAdminExt admin = OfficialClients.admin(nameServer.address());
            resources.closeClientLater(admin::shutdown);

            assertEquals(broker.address(),
                admin.examineBrokerClusterInfo().getBrokerAddrTable().get(BROKER).getBrokerAddrs().get(0L),
                "master of " + BROKER + " at " + nameServer);
        }
    }

    @Test
    @Order(2)
    void whenOneNameServerStopsTheProducerAndAdminKeepRoutingThroughTheOther() throws Exception {
        String bothAddresses = nameServerA.address() + ";" + nameServerB.address();
        DefaultMQAdminExt admin = OfficialClients.admin(bothAddresses);
        resources.closeClientLater(admin::shutdown);
        DefaultMQProducer producer = OfficialClients.producer(bothAddresses, "compat_pair_producer_group");
        resources.closeClientLater(producer::shutdown);
        String topicBefore = "CompatPairTopicBefore";
        createTopic(admin, topicBefore);
        awaitRoute(admin, topicBefore);
        assertSent(producer.send(message(topicBefore)));

        nameServerA.stop();

        // A topic created now is known only to b: routing it proves the clients moved to b.
        String topicAfter = "CompatPairTopicAfter";
        createTopic(admin, topicAfter);
        TopicRouteData route = awaitRoute(admin, topicAfter);
        assertEquals(BROKER, route.getQueueDatas().get(0).getBrokerName());
        assertSent(producer.send(message(topicAfter)));
        assertSent(producer.send(message(topicBefore)));
    }

    private static void createTopic(DefaultMQAdminExt admin, String topic) throws Exception {
        admin.createAndUpdateTopicConfig(broker.address(),
            new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT, PERM_READ_WRITE));
    }

    private static TopicRouteData awaitRoute(DefaultMQAdminExt admin, String topic) {
        TopicRouteData[] route = new TopicRouteData[1];
        Await.until("a route for " + topic, ROUTE_TIMEOUT, () -> {
            route[0] = admin.examineTopicRouteInfo(topic);
            return !route[0].getQueueDatas().isEmpty();
        });
        return route[0];
    }

    private static Message message(String topic) {
        return new Message(topic, "TagA", ("to " + topic).getBytes(StandardCharsets.UTF_8));
    }

    private static void assertSent(SendResult result) {
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
    }
}
