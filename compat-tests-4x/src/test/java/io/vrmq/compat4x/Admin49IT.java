package io.vrmq.compat4x;

import static io.vrmq.compat4x.support.Clients49.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat4x.support.Await;
import io.vrmq.compat4x.support.Clients49;
import io.vrmq.compat4x.support.VrmqCluster;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.protocol.body.ClusterInfo;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official 4.9.8 admin ({@code DefaultMQAdminExt}, the engine of the 4.9 mqadmin) reading cluster info and
 * topic routes from our NameServer, with our broker registered there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Admin49IT {

    private static final String BROKER_NAME = "broker-admin49";
    private static final int READ_QUEUE_COUNT = 3;
    private static final int WRITE_QUEUE_COUNT = 2;
    private static final int PERM_READ_WRITE = 6;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final VrmqCluster cluster = new VrmqCluster();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void startNameServerBrokerAndAdmin() throws Exception {
        cluster.start(dir, BROKER_NAME);
        admin = new Clients49(cluster).admin();
    }

    @Test
    void clusterInfoHasOurBrokerInItsClusterAtItsAddress() throws Exception {
        ClusterInfo info = admin.examineBrokerClusterInfo();

        assertEquals(Set.of(BROKER_NAME), info.getClusterAddrTable().get(VrmqCluster.CLUSTER_NAME),
            "clusterAddrTable " + info.getClusterAddrTable());
        BrokerData broker = info.getBrokerAddrTable().get(BROKER_NAME);
        assertEquals(VrmqCluster.CLUSTER_NAME, broker.getCluster());
        assertEquals(Map.of(0L, cluster.brokerAddr()), broker.getBrokerAddrs());
    }

    @Test
    void topicRouteOfACreatedTopicHasOurBrokerWithTheTopicsQueueCounts() throws Exception {
        String topic = uniqueName("Route49");
        admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(topic, READ_QUEUE_COUNT,
            WRITE_QUEUE_COUNT, PERM_READ_WRITE));

        Await.until("a route for " + topic, ROUTE_TIMEOUT,
            () -> !admin.examineTopicRouteInfo(topic).getQueueDatas().isEmpty());

        TopicRouteData route = admin.examineTopicRouteInfo(topic);
        QueueData queues = route.getQueueDatas().get(0);
        assertEquals(BROKER_NAME, queues.getBrokerName());
        assertEquals(READ_QUEUE_COUNT, queues.getReadQueueNums());
        assertEquals(WRITE_QUEUE_COUNT, queues.getWriteQueueNums());
        assertEquals(PERM_READ_WRITE, queues.getPerm());
        assertEquals(Map.of(0L, cluster.brokerAddr()), route.getBrokerDatas().get(0).getBrokerAddrs());
    }

    @Test
    void topicRouteOfTheDefaultTopicIsServedForAutoCreation() throws Exception {
        TopicRouteData route = admin.examineTopicRouteInfo("TBW102");

        assertEquals(BROKER_NAME, route.getQueueDatas().get(0).getBrokerName());
    }

    @Test
    void topicListHasTheBrokersTopics() throws Exception {
        Set<String> topics = admin.fetchAllTopicList().getTopicList();

        assertTrue(topics.containsAll(Set.of("TBW102", VrmqCluster.CLUSTER_NAME, BROKER_NAME)), topics.toString());
    }
}
