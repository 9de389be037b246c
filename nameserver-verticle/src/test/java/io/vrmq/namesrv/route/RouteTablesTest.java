package io.vrmq.namesrv.route;

import io.vrmq.remoting.body.BrokerData;
import io.vrmq.remoting.body.ClusterInfo;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.body.TopicList;
import io.vrmq.remoting.body.TopicRouteData;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RouteTables on its own, with a clock the test moves by hand: no network, no Vert.x. */
class RouteTablesTest {
    private static final long DEFAULT_TIMEOUT_MS = 1_000;
    private static final String BROKER_CLUSTER = "DefaultCluster";
    private static final String CLUSTER_A = "cluster-a";
    private static final String CLUSTER_B = "cluster-b";
    private static final String BROKER_A = "broker-a";
    private static final String BROKER_B = "broker-b";
    private static final String MASTER_ADDR = "10.0.0.1:10911";
    private static final String MASTER_HA_ADDR = "10.0.0.1:10912";
    private static final String SLAVE_ADDR = "10.0.0.2:10911";
    private static final String SECOND_SLAVE_ADDR = "10.0.0.3:10911";
    private static final String OTHER_MASTER_ADDR = "10.0.0.9:10911";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_000);
    private static final DataVersion V2 = new DataVersion(2, 0, 2_000);

    private final AtomicLong nowMs = new AtomicLong(0);
    private final RouteTables routes = new RouteTables(nowMs::get, DEFAULT_TIMEOUT_MS, false);

    @Test
    void masterAndSlaveOfOneGroupBothAppearInTheRoute() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 1, SLAVE_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));

        TopicRouteData route = routes.routeOf("T");

        assertEquals(1, route.brokerDatas().size());
        assertEquals(Map.of(0L, MASTER_ADDR, 1L, SLAVE_ADDR), route.brokerDatas().get(0).brokerAddrs());
        assertEquals(List.of(new QueueData(BROKER_A, 4, 4, Permission.READ_WRITE, 0)), route.queueDatas());
    }

    @Test
    void aSlaveIsToldItsMasterAndTheMastersHaAddress() {
        RegisterResult master = routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1));
        RegisterResult slave = routes.registerBroker(broker(BROKER_A, 1, SLAVE_ADDR, V1));

        assertEquals(new RegisterResult(null, null), master);
        assertEquals(new RegisterResult(MASTER_ADDR, MASTER_HA_ADDR), slave);
    }

    @Test
    void onlyTheMastersTopicConfigsBecomeQueueData() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 1, SLAVE_ADDR, V2, TopicConfig.of("T", 16, Permission.READ),
            TopicConfig.of("SLAVE_ONLY", 2, Permission.READ_WRITE)));

        assertEquals(List.of(new QueueData(BROKER_A, 4, 4, Permission.READ_WRITE, 0)),
            routes.routeOf("T").queueDatas());
        assertNull(routes.routeOf("SLAVE_ONLY"));
    }

    @Test
    void anUnchangedDataVersionDoesNotRewriteQueueData() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 8, Permission.READ_WRITE)));

        assertEquals(4, routes.routeOf("T").queueDatas().get(0).writeQueueNums());
    }

    @Test
    void aChangedDataVersionRewritesQueueData() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V2, TopicConfig.of("T", 8, Permission.READ_WRITE)));

        assertEquals(8, routes.routeOf("T").queueDatas().get(0).writeQueueNums());
        assertEquals(V2, routes.dataVersionOf(BROKER_CLUSTER, MASTER_ADDR));
    }

    @Test
    void anIncrementalRegistrationAddsItsTopicAndKeepsTheOthers() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE),
            TopicConfig.of("U", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V2, TopicConfig.of("NEW", 2, Permission.READ_WRITE)));

        assertEquals(Set.of("T", "U", "NEW"), routes.allTopics().topicList());
        assertEquals(2, routes.routeOf("NEW").queueDatas().get(0).writeQueueNums());
        assertEquals(V2, routes.dataVersionOf(BROKER_CLUSTER, MASTER_ADDR));
    }

    @Test
    void aFullRegistrationWithAnUnchangedVersionAddsTheTopicsTheBrokerHasNoQueueDataFor() {
        // An incremental registration reached a NameServer that did not know the broker: only its one topic is in.
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V2, TopicConfig.of("NEW", 2, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V2, TopicConfig.of("T", 4, Permission.READ_WRITE),
            TopicConfig.of("NEW", 8, Permission.READ_WRITE)));

        assertEquals(Set.of("T", "NEW"), routes.allTopics().topicList());
        assertEquals(2, routes.routeOf("NEW").queueDatas().get(0).writeQueueNums());   // present: not rewritten
    }

    @Test
    void aSlavePromotedToMasterEndsUpOnlyUnderIdZero() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 1, SLAVE_ADDR, V1));
        routes.unregisterBroker(BROKER_CLUSTER, MASTER_ADDR, BROKER_A);

        routes.registerBroker(broker(BROKER_A, 0, SLAVE_ADDR, V2, TopicConfig.of("T", 4, Permission.READ_WRITE)));

        assertEquals(Map.of(0L, SLAVE_ADDR), routes.routeOf("T").brokerDatas().get(0).brokerAddrs());
        assertEquals(Map.of(0L, SLAVE_ADDR), routes.groupMembers(BROKER_CLUSTER, BROKER_A));
    }

    @Test
    void aStaleOldMasterCannotTakeIdZeroBackFromTheMasterElectedAfterIt() {
        routes.registerBroker(broker(BROKER_A, 0, SLAVE_ADDR, new DataVersion(3, 2, 3_000)));

        RegisterResult stale = routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, new DataVersion(5, 1, 5_000)));

        assertNull(stale.masterAddr());
        assertEquals(Map.of(0L, SLAVE_ADDR), routes.clusterInfo().brokerAddrTable().get(BROKER_A).brokerAddrs());
        assertEquals(1, routes.liveBrokers().size());
    }

    @Test
    void aMasterWithANewerStateVersionReplacesTheOldOneUnderIdZero() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, new DataVersion(5, 1, 5_000)));

        routes.registerBroker(broker(BROKER_A, 0, SLAVE_ADDR, new DataVersion(3, 2, 3_000)));

        assertEquals(Map.of(0L, SLAVE_ADDR), routes.clusterInfo().brokerAddrTable().get(BROKER_A).brokerAddrs());
    }

    @Test
    void unregisteringTheLastAddressOfAGroupRemovesTheGroupItsClusterEntryAndItsTopics() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));

        List<RemovedBroker> removed = routes.unregisterBroker(BROKER_CLUSTER, MASTER_ADDR, BROKER_A);

        assertEquals(List.of(new RemovedBroker(BROKER_CLUSTER, BROKER_A, 0, MASTER_ADDR)), removed);
        assertNull(routes.routeOf("T"));
        assertEquals(new ClusterInfo(Map.of(), Map.of()), routes.clusterInfo());
        assertEquals(Set.of(), routes.allTopics().topicList());
        assertEquals(0, routes.liveBrokerCount());
    }

    @Test
    void unregisteringTheMasterKeepsTheGroupAndItsTopicsWhileASlaveRemains() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_A, 1, SLAVE_ADDR, V1));

        routes.unregisterBroker(BROKER_CLUSTER, MASTER_ADDR, BROKER_A);

        assertEquals(Map.of(1L, SLAVE_ADDR), routes.routeOf("T").brokerDatas().get(0).brokerAddrs());
        assertEquals(Map.of(BROKER_CLUSTER, Set.of(BROKER_A)), routes.clusterInfo().clusterAddrTable());
    }

    @Test
    void aBrokerExpiresOnlyAfterTheDefaultHeartbeatTimeoutHasPassed() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));

        nowMs.set(DEFAULT_TIMEOUT_MS);
        assertTrue(routes.expireSilentBrokers().isEmpty());
        nowMs.set(DEFAULT_TIMEOUT_MS + 1);
        Map<RemovedBroker, ?> expired = routes.expireSilentBrokers();

        assertEquals(Set.of(new RemovedBroker(BROKER_CLUSTER, BROKER_A, 0, MASTER_ADDR)), expired.keySet());
        assertNull(routes.routeOf("T"));
    }

    @Test
    void aBrokerGivenHeartbeatTimeoutReplacesTheDefault() {
        long brokerTimeoutMs = 5_000;
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, brokerTimeoutMs, false,
            TopicConfig.of("T", 4, Permission.READ_WRITE)));

        nowMs.set(DEFAULT_TIMEOUT_MS + 1);
        assertTrue(routes.expireSilentBrokers().isEmpty());
        nowMs.set(brokerTimeoutMs + 1);

        assertEquals(1, routes.expireSilentBrokers().size());
        assertEquals(0, routes.liveBrokerCount());
    }

    @Test
    void touchPostponesExpiry() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1));
        nowMs.set(900);
        routes.touch(BROKER_CLUSTER, MASTER_ADDR);

        nowMs.set(900 + DEFAULT_TIMEOUT_MS);
        assertTrue(routes.expireSilentBrokers().isEmpty());
        nowMs.set(900 + DEFAULT_TIMEOUT_MS + 1);

        assertEquals(1, routes.expireSilentBrokers().size());
    }

    @Test
    void touchOfAnUnknownBrokerRegistersNothing() {
        routes.touch(BROKER_CLUSTER, MASTER_ADDR);

        assertEquals(0, routes.liveBrokerCount());
    }

    @Test
    void deleteTopicWithoutAClusterRemovesItFromEveryBroker() {
        registerTwoClustersSharingTopicT();

        assertTrue(routes.deleteTopic("T", null));

        assertNull(routes.routeOf("T"));
        assertFalse(routes.allTopics().topicList().contains("T"));
    }

    @Test
    void deleteTopicWithAClusterRemovesItOnlyFromThatClustersBrokers() {
        registerTwoClustersSharingTopicT();

        assertTrue(routes.deleteTopic("T", CLUSTER_A));

        TopicRouteData route = routes.routeOf("T");
        assertEquals(List.of(BROKER_B), route.queueDatas().stream().map(QueueData::brokerName).toList());
        assertEquals(List.of(BROKER_B), route.brokerDatas().stream().map(BrokerData::brokerName).toList());
    }

    @Test
    void deleteTopicOfAnUnknownTopicChangesNothing() {
        registerTwoClustersSharingTopicT();

        assertFalse(routes.deleteTopic("UNKNOWN", null));
        assertFalse(routes.deleteTopic("T", "no-such-cluster"));

        assertEquals(2, routes.routeOf("T").queueDatas().size());
    }

    @Test
    void wipeWritePermClearsTheWriteBitOfEveryTopicOnTheBrokerAndCountsThem() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T1", 4, Permission.READ_WRITE),
            TopicConfig.of("T2", 4, Permission.READ_WRITE)));

        assertEquals(2, routes.changeWritePerm(BROKER_A, false));

        assertEquals(Permission.READ, routes.routeOf("T1").queueDatas().get(0).perm());
        assertEquals(Permission.READ, routes.routeOf("T2").queueDatas().get(0).perm());
    }

    @Test
    void addWritePermRestoresReadAndWriteOnEveryTopicOnTheBrokerAndCountsThem() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T1", 4, Permission.READ),
            TopicConfig.of("T2", 4, Permission.READ_WRITE)));
        routes.changeWritePerm(BROKER_A, false);

        assertEquals(2, routes.changeWritePerm(BROKER_A, true));

        assertEquals(Permission.READ_WRITE, routes.routeOf("T1").queueDatas().get(0).perm());
        assertEquals(Permission.READ_WRITE, routes.routeOf("T2").queueDatas().get(0).perm());
    }

    @Test
    void changeWritePermOfAnUnknownBrokerCountsNothing() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1, TopicConfig.of("T", 4, Permission.READ_WRITE)));

        assertEquals(0, routes.changeWritePerm("no-such-broker", false));
        assertEquals(Permission.READ_WRITE, routes.routeOf("T").queueDatas().get(0).perm());
    }

    @Test
    void topicsOfClusterListsTheTopicsServedByThatClustersBrokers() {
        registerTwoClustersSharingTopicT();
        routes.registerBroker(broker(CLUSTER_A, BROKER_A, 0, MASTER_ADDR, V2, 0, false,
            TopicConfig.of("T", 4, Permission.READ_WRITE), TopicConfig.of("ONLY_A", 4, Permission.READ_WRITE)));

        assertEquals(Set.of("T", "ONLY_A"), routes.topicsOfCluster(CLUSTER_A).topicList());
        assertEquals(Set.of("T"), routes.topicsOfCluster(CLUSTER_B).topicList());
        assertEquals(Set.of(), routes.topicsOfCluster("no-such-cluster").topicList());
    }

    @Test
    void systemTopicsAreTheClusterAndBrokerNamesWithAMasterAddress() {
        routes.registerBroker(broker(CLUSTER_A, BROKER_A, 0, MASTER_ADDR, V1, 0, false));

        TopicList system = routes.systemTopics();

        assertEquals(Set.of(CLUSTER_A, BROKER_A), system.topicList());
        assertEquals(MASTER_ADDR, system.brokerAddr());
    }

    @Test
    void withActingMasterSupportTheLowestSlaveShowsAsIdZeroWhenTheMasterIsGone() {
        RouteTables actingRoutes = new RouteTables(nowMs::get, DEFAULT_TIMEOUT_MS, true);
        actingRoutes.registerBroker(broker(BROKER_CLUSTER, BROKER_A, 0, MASTER_ADDR, V1, 0, true,
            TopicConfig.of("T", 4, Permission.READ_WRITE)));
        actingRoutes.registerBroker(broker(BROKER_CLUSTER, BROKER_A, 1, SLAVE_ADDR, V1, 0, true));
        actingRoutes.registerBroker(broker(BROKER_CLUSTER, BROKER_A, 2, SECOND_SLAVE_ADDR, V1, 0, true));

        actingRoutes.unregisterBroker(BROKER_CLUSTER, MASTER_ADDR, BROKER_A);

        assertEquals(Map.of(0L, SLAVE_ADDR, 2L, SECOND_SLAVE_ADDR),
            actingRoutes.routeOf("T").brokerDatas().get(0).brokerAddrs());
    }

    @Test
    void withActingMasterSupportTheMastersDepartureClearsTheGroupsWritePermission() {
        RouteTables actingRoutes = new RouteTables(nowMs::get, DEFAULT_TIMEOUT_MS, true);
        actingRoutes.registerBroker(broker(BROKER_CLUSTER, BROKER_A, 0, MASTER_ADDR, V1, 0, true,
            TopicConfig.of("T", 4, Permission.READ_WRITE)));
        actingRoutes.registerBroker(broker(BROKER_CLUSTER, BROKER_A, 1, SLAVE_ADDR, V1, 0, true));

        actingRoutes.unregisterBroker(BROKER_CLUSTER, MASTER_ADDR, BROKER_A);

        assertEquals(Permission.READ, actingRoutes.routeOf("T").queueDatas().get(0).perm());
    }

    @Test
    void withoutActingMasterSupportAGroupWithoutMasterShowsOnlyItsSlaves() {
        routes.registerBroker(broker(BROKER_CLUSTER, BROKER_A, 0, MASTER_ADDR, V1, 0, true,
            TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(BROKER_CLUSTER, BROKER_A, 1, SLAVE_ADDR, V1, 0, true));

        routes.unregisterBroker(BROKER_CLUSTER, MASTER_ADDR, BROKER_A);

        assertEquals(Map.of(1L, SLAVE_ADDR), routes.routeOf("T").brokerDatas().get(0).brokerAddrs());
    }

    @Test
    void liveBrokersListsEveryRegisteredProcessWithItsDataVersion() {
        routes.registerBroker(broker(BROKER_A, 0, MASTER_ADDR, V1));
        routes.registerBroker(broker(BROKER_A, 1, SLAVE_ADDR, V2));

        List<LiveBroker> live = routes.liveBrokers();

        assertEquals(List.of(MASTER_ADDR, SLAVE_ADDR), live.stream().map(LiveBroker::brokerAddr).toList());
        assertEquals(V2, live.get(1).dataVersion());
        assertNotNull(live.get(0).haServerAddr());
    }

    private void registerTwoClustersSharingTopicT() {
        routes.registerBroker(broker(CLUSTER_A, BROKER_A, 0, MASTER_ADDR, V1, 0, false,
            TopicConfig.of("T", 4, Permission.READ_WRITE)));
        routes.registerBroker(broker(CLUSTER_B, BROKER_B, 0, OTHER_MASTER_ADDR, V1, 0, false,
            TopicConfig.of("T", 4, Permission.READ_WRITE)));
    }

    private static BrokerRegistration broker(String brokerName, long brokerId, String brokerAddr, DataVersion version,
                                             TopicConfig... topics) {
        return broker(BROKER_CLUSTER, brokerName, brokerId, brokerAddr, version, 0, false, topics);
    }

    private static BrokerRegistration broker(String brokerName, long brokerId, String brokerAddr, DataVersion version,
                                             long heartbeatTimeoutMs, boolean enableActingMaster,
                                             TopicConfig... topics) {
        return broker(BROKER_CLUSTER, brokerName, brokerId, brokerAddr, version, heartbeatTimeoutMs,
            enableActingMaster, topics);
    }

    private static BrokerRegistration broker(String clusterName, String brokerName, long brokerId, String brokerAddr,
                                             DataVersion version, long heartbeatTimeoutMs,
                                             boolean enableActingMaster, TopicConfig... topics) {
        Map<String, TopicConfig> table = new LinkedHashMap<>();
        for (TopicConfig topic : topics) {
            table.put(topic.topicName(), topic);
        }
        String haServerAddr = brokerAddr.replace(":10911", ":10912");
        return new BrokerRegistration(clusterName, brokerAddr, brokerName, brokerId, haServerAddr, null,
            heartbeatTimeoutMs, enableActingMaster, new TopicConfigSerializeWrapper(table, version), List.of(), null);
    }
}
