package io.vrmq.compat.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.ConsumedKeys;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.controller.support.ApacheControllers;
import io.vrmq.compat.controller.support.ControllerModeKeys;
import io.vrmq.compat.controller.support.SequencedProducer;
import io.vrmq.compat.mqadmin.MqAdmin;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
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
 * Our brokers in controller mode under Apache RocketMQ 5.5.0's own controller (DLedger type, in this JVM): they get
 * ids, the first becomes master and the second joins its SyncStateSet; mqadmin reads their epochs and HA status;
 * SIGKILL of the master makes Apache's controller elect ours, which takes the official producer's sends; the killed
 * broker comes back as a slave; a new consumer group gets every message answered SEND_OK.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ApacheControllerInteropIT {

    private static final String BROKER_NAME = "broker-under-apache";
    private static final int QUEUE_COUNT = 4;
    private static final int SENDS_BETWEEN_EVENTS = 200;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static ApacheControllers controller;
    private static RunningNameServer nameServer;
    private static VrmqBroker first;
    private static VrmqBroker second;
    private static BrokerClients clients;
    private static DefaultMQAdminExt admin;
    private static String topic;
    private static SequencedProducer sending;

    @BeforeAll
    static void startApacheControllerOurNameServerAndTwoOfOurBrokers() throws Exception {
        controller = resources.closeLater(ApacheControllers.start(dir.resolve("apache-controller"), 1));
        nameServer = resources.nameServer(dir.resolve("namesrv"), NameServerSettings.defaults(dir.resolve("namesrv")));
        clients = new BrokerClients(resources, nameServer.address());
        admin = clients.admin();
        first = brokers.start(BrokerSettings.defaults(BROKER_NAME, nameServer.address(), dir.resolve("first")),
            ControllerModeKeys.allAck(controller.controllerAddr()));
        Await.until(first + " elected by Apache's controller", TIMEOUT,
            () -> isMaster(first));
        second = brokers.start(BrokerSettings.defaults(BROKER_NAME, nameServer.address(), dir.resolve("second")),
            ControllerModeKeys.allAck(controller.controllerAddr()));
        Await.until("both brokers in the SyncStateSet", TIMEOUT, () -> inSyncCount() == 2);
        topic = "UnderApacheController";
        admin.createAndUpdateTopicConfig(first.address(), new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT));
        Await.until(topic + " copied to " + second, TIMEOUT,
            () -> admin.examineTopicConfig(second.address(), topic) != null);
        DefaultMQProducer producer = clients.fastRoutingProducer("under_apache_producer");
        sending = resources.closeLater(SequencedProducer.start(producer, topic));
        awaitMoreAcknowledged(SENDS_BETWEEN_EVENTS);
    }

    @Test
    @Order(1)
    void apachesControllerGaveOurBrokersIdsAndASyncStateSet() throws Exception {
        BrokerReplicasInfo.ReplicasInfo set = replicasInfo();
        assertEquals(1L, set.getMasterBrokerId());
        assertEquals(Set.of(1L, 2L), set.getInSyncReplicas().stream()
            .map(BrokerReplicasInfo.ReplicaIdentity::getBrokerId).collect(Collectors.toSet()));
    }

    @Test
    @Order(2)
    void mqadminReadsOurBrokersEpochsAndHaStatus() {
        MqAdmin.Output epochs = MqAdmin.run(nameServer.address(), "getBrokerEpoch", "-b", BROKER_NAME)
            .assertSucceeded();
        assertEquals(2, epochs.linesWith("#brokerAddr").size(), epochs.toString());
        assertEquals(2, epochs.linesWith("#Epoch:").size(), "each broker has epoch 1: " + epochs);

        MqAdmin.Output haStatus = MqAdmin.run(nameServer.address(), "haStatus", "-b", first.address())
            .assertSucceeded();
        assertEquals(List.of("#SlaveNum", "1"), MqAdmin.Output.columns(haStatus.lineWith("#SlaveNum")));
        assertEquals(List.of("#InSyncSlaveNum", "1"), MqAdmin.Output.columns(haStatus.lineWith("#InSyncSlaveNum")));
    }

    @Test
    @Order(3)
    void killingOurMasterMakesApachesControllerElectOurOtherBroker() throws Exception {
        long killedNanos = System.nanoTime();
        first.kill();
        Await.until("Apache's controller elects " + second, TIMEOUT, () -> isMaster(second));
        Await.until("a SEND_OK stored by " + second, TIMEOUT,
            () -> sending.firstOkNanosFrom(second.address(), killedNanos) > 0);
        System.out.printf("under Apache's controller: kill to first SEND_OK from the new master %d ms%n",
            TimeUnit.NANOSECONDS.toMillis(sending.firstOkNanosFrom(second.address(), killedNanos) - killedNanos));

        first.start();
        Await.until(first + " back in the SyncStateSet as a slave", TIMEOUT,
            () -> isMaster(second) && inSyncCount() == 2);
        assertNotEquals(first.address(), replicasInfo().getMasterAddress());
        awaitMoreAcknowledged(SENDS_BETWEEN_EVENTS);
    }

    @Test
    @Order(4)
    void everyMessageAnsweredSendOkIsConsumed() throws Exception {
        sending.close();
        Set<String> expected = sending.acknowledged().stream().map(sequence -> "seq-" + sequence)
            .collect(Collectors.toSet());
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(ConsumedKeys.consumeUntilAll(clients, "under_apache_consumer", topic, "*", expected,
            TIMEOUT));
        assertTrue(missing.isEmpty(), "acknowledged but never consumed: " + missing);
    }

    private static void awaitMoreAcknowledged(int count) {
        int target = sending.acknowledgedCount() + count;
        Await.until(count + " more SEND_OK", TIMEOUT, () -> sending.acknowledgedCount() >= target);
    }

    private static boolean isMaster(VrmqBroker broker) throws Exception {
        return broker.address().equals(replicasInfo().getMasterAddress());
    }

    private static int inSyncCount() throws Exception {
        return replicasInfo().getInSyncReplicas().size();
    }

    /** The controller's view of the set; throws (so an await polls again) while it has none. */
    private static BrokerReplicasInfo.ReplicasInfo replicasInfo() throws Exception {
        String leader = controller.leaderAddress().orElseThrow(() -> new IllegalStateException("no leader"));
        BrokerReplicasInfo.ReplicasInfo set = admin.getInSyncStateData(leader, List.of(BROKER_NAME))
            .getReplicasInfoTable().get(BROKER_NAME);
        if (set == null) {
            throw new IllegalStateException("no replicas info for " + BROKER_NAME + " yet");
        }
        return set;
    }
}
