package io.vrmq.compat.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.mqadmin.MqAdmin;
import io.vrmq.compat.support.ApacheBroker;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import io.vrmq.compat.support.VrmqController;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
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
 * Two real Apache RocketMQ 5.5.0 brokers of one broker set in controller mode ({@code enableControllerMode},
 * {@code brokerId=-1}, {@code allAckInSyncStateSet}) under our controller and our NameServer: the first becomes master
 * and the second its slave in the SyncStateSet; the 5.5.0 mqadmin reads and changes the controller; an admin
 * election hands the set to the slave; SIGKILL of the master makes our controller elect the other; the official
 * producer gets SEND_OK throughout; the dead replica's metadata is cleaned. One fixture for the class, the tests in
 * order: each starts from where the previous left the set.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ControllerModeIT {

    private static final String CLUSTER = "ControllerCluster";
    private static final String BROKER_NAME = "broker-ctl";
    private static final long FIRST_ID = 1;
    private static final long SECOND_ID = 2;
    /** A role change reaches the NameServer when the new master registers; clients see it at their next poll. */
    private static final Duration ROLE_CHANGE_TIMEOUT = Duration.ofSeconds(60);
    private static final int QUEUE_COUNT = 4;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static VrmqController controller;
    private static ApacheBroker first;
    private static ApacheBroker second;
    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;
    private static String topic;

    @BeforeAll
    static void startControllerNameServerAndBrokers() throws Exception {
        nameServer = resources.nameServer(dir.resolve("namesrv"), NameServerSettings.defaults(dir.resolve("namesrv")));
        controller = resources.controller(dir.resolve("controller"), Map.of());
        first = resources.broker(dir.resolve("first"), CLUSTER, BROKER_NAME, List.of(nameServer),
            controllerMode(controller));
        second = resources.broker(dir.resolve("second"), CLUSTER, BROKER_NAME, List.of(nameServer),
            controllerMode(controller));
        admin = OfficialClients.admin(nameServer.address());
        resources.closeClientLater(admin::shutdown);
        producer = new DefaultMQProducer("controller_mode_producer");
        producer.setNamesrvAddr(nameServer.address());
        producer.setInstanceName(OfficialClients.uniqueInstanceName("producer"));
        producer.setPollNameServerInterval(1_000);    // see a new master within a second, not 30
        producer.start();
        resources.closeClientLater(producer::shutdown);
        awaitSyncStateSet(FIRST_ID, 2);
        topic = "ControllerModeTopic";
        TopicConfig topicConfig = new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT);
        admin.createAndUpdateTopicConfig(first.address(), topicConfig);
        // The slave copies the master's topics every few seconds; it needs this one once it becomes master.
        Await.until(topic + " on the slave", ROLE_CHANGE_TIMEOUT,
            () -> admin.examineTopicConfig(second.address(), topic) != null);
    }

    /**
     * Controller-mode broker.conf keys, as in Apache's sample: the controller assigns ids and roles. brokerIP2 is the
     * address the master registers for HA, which the slave learns from the NameServer.
     */
    private static Map<String, String> controllerMode(VrmqController controller) {
        return Map.of("enableControllerMode", "true", "controllerAddr", controller.address(), "brokerId", "-1",
            "brokerRole", "SLAVE", "allAckInSyncStateSet", "true", "brokerIP2", "127.0.0.1",
            "syncBrokerMetadataPeriod", "2000", "checkSyncStateSetPeriod", "2000");
    }

    @Test
    @Order(1)
    void theFirstBrokerIsMasterTheSecondIsInSyncAndSendsAreOk() throws Exception {
        BrokerReplicasInfo.ReplicasInfo set = replicasInfo();
        assertEquals(FIRST_ID, set.getMasterBrokerId());
        assertEquals(first.address(), set.getMasterAddress());
        assertEquals(1, set.getMasterEpoch(), "one election so far");
        assertEquals(Map.of(0L, first.address(), SECOND_ID, second.address()), route().getBrokerAddrs());
        sendOk(5);
    }

    @Test
    @Order(2)
    void mqadminReadsTheControllerAndTheBrokers() {
        MqAdmin.Output metadata = MqAdmin.run(nameServer.address(), "getControllerMetaData", "-a",
            controller.address()).assertSucceeded();
        assertEquals(List.of("#ControllerLeaderId", "n0"), MqAdmin.Output.columns(metadata.lineWith(
            "#ControllerLeaderId")));
        assertEquals(controller.address(), MqAdmin.Output.columns(metadata.lineWith("#ControllerLeaderAddress"))
            .get(1));
        assertEquals(List.of("#Peer:", "n0:" + controller.address()), MqAdmin.Output.columns(metadata.lineWith(
            "#Peer:")));

        MqAdmin.Output syncStateSet = MqAdmin.run(nameServer.address(), "getSyncStateSet", "-a",
            controller.address(), "-b", BROKER_NAME).assertSucceeded();
        assertEquals(List.of("#MasterAddr", first.address()), MqAdmin.Output.columns(syncStateSet.lineWith(
            "#MasterAddr")));
        assertEquals(List.of("#SyncStateSetNums", "2"), MqAdmin.Output.columns(syncStateSet.lineWith(
            "#SyncStateSetNums")));
        assertEquals(2, syncStateSet.linesWith("InSyncReplica:", "alive=true").size(), syncStateSet.toString());

        MqAdmin.Output epochs = MqAdmin.run(nameServer.address(), "getBrokerEpoch", "-b", BROKER_NAME)
            .assertSucceeded();
        assertEquals(2, epochs.linesWith("#brokerAddr").size(), epochs.toString());
        assertTrue(epochs.linesWith("#Epoch:").size() >= 2, "each broker has epoch 1: " + epochs);

        MqAdmin.Output haStatus = MqAdmin.run(nameServer.address(), "haStatus", "-b", first.address())
            .assertSucceeded();
        assertEquals(List.of("#SlaveNum", "1"), MqAdmin.Output.columns(haStatus.lineWith("#SlaveNum")));
        assertEquals(List.of("#InSyncSlaveNum", "1"), MqAdmin.Output.columns(haStatus.lineWith("#InSyncSlaveNum")));
    }

    @Test
    @Order(3)
    void mqadminChangesTheControllerConfigButNotABlackListedKey() {
        MqAdmin.run(nameServer.address(), "updateControllerConfig", "-a", controller.address(), "-k",
            "scanInactiveMasterInterval", "-v", "1500").assertSucceeded();
        MqAdmin.Output config = MqAdmin.run(nameServer.address(), "getControllerConfig", "-a", controller.address())
            .assertSucceeded();
        assertEquals(List.of("scanInactiveMasterInterval", "=", "1500"), MqAdmin.Output.columns(config.lineWith(
            "scanInactiveMasterInterval")));
        assertEquals(1, config.linesWith("============" + controller.address()).size(), config.toString());

        MqAdmin.Output refused = MqAdmin.run(nameServer.address(), "updateControllerConfig", "-a",
            controller.address(), "-k", "configStorePath", "-v", "/tmp/elsewhere");
        assertTrue(refused.stderr().contains("CODE: 16") && refused.stderr().contains("black list"),
            refused.toString());
    }

    @Test
    @Order(4)
    void electMasterHandsTheSetToTheDesignatedSlave() throws Exception {
        MqAdmin.Output elected = MqAdmin.run(nameServer.address(), "electMaster", "-a", controller.address(), "-c",
            CLUSTER, "-bn", BROKER_NAME, "-b", Long.toString(SECOND_ID)).assertSucceeded();
        assertEquals(List.of("#BrokerMasterAddr", second.address()), MqAdmin.Output.columns(elected.lineWith(
            "#BrokerMasterAddr")));
        assertEquals(List.of("#MasterEpoch", "2"), MqAdmin.Output.columns(elected.lineWith("#MasterEpoch")));
        awaitMasterInRoute(second);
        awaitSyncStateSet(SECOND_ID, 2);
        sendOk(5);
    }

    @Test
    @Order(5)
    void killingTheMasterMakesTheControllerElectTheOtherBroker() throws Exception {
        second.process().kill();
        Await.until("our controller elects broker " + FIRST_ID, ROLE_CHANGE_TIMEOUT,
            () -> replicasInfo().getMasterBrokerId() == FIRST_ID);
        awaitMasterInRoute(first);
        Await.until("SEND_OK from the new master", ROLE_CHANGE_TIMEOUT, () -> send().getSendStatus()
            == SendStatus.SEND_OK);
        sendOk(5);
    }

    @Test
    @Order(6)
    void cleanBrokerMetadataRefusesALiveReplicaAndRemovesTheDeadOne() throws Exception {
        MqAdmin.Output refused = MqAdmin.run(nameServer.address(), "cleanBrokerMetadata", "-a",
            controller.address(), "-c", CLUSTER, "-bn", BROKER_NAME, "-b", Long.toString(FIRST_ID));
        assertTrue(refused.stderr().contains("CODE: 2009"), refused.toString());
        Await.until("broker " + SECOND_ID + " seen dead", ROLE_CHANGE_TIMEOUT, () -> replicasInfo()
            .getNotInSyncReplicas().stream().noneMatch(BrokerReplicasInfo.ReplicaIdentity::getAlive));
        MqAdmin.run(nameServer.address(), "cleanBrokerMetadata", "-a", controller.address(), "-c", CLUSTER, "-bn",
            BROKER_NAME, "-b", Long.toString(SECOND_ID)).assertSucceeded();
        BrokerReplicasInfo.ReplicasInfo set = replicasInfo();
        assertEquals(1, set.getInSyncReplicas().size() + set.getNotInSyncReplicas().size(), set.toString());
        assertEquals(FIRST_ID, set.getInSyncReplicas().get(0).getBrokerId());
    }

    private static BrokerReplicasInfo.ReplicasInfo replicasInfo() throws Exception {
        return admin.getInSyncStateData(controller.address(), List.of(BROKER_NAME)).getReplicasInfoTable()
            .get(BROKER_NAME);
    }

    private static void awaitSyncStateSet(long masterId, int size) {
        Await.until("master " + masterId + " with " + size + " replicas in sync", ROLE_CHANGE_TIMEOUT, () -> {
            BrokerReplicasInfo.ReplicasInfo set = replicasInfo();
            return set != null && set.getMasterBrokerId() != null && set.getMasterBrokerId() == masterId
                && set.getInSyncReplicas().size() == size;
        });
    }

    private static BrokerData route() throws Exception {
        return admin.examineTopicRouteInfo(topic == null ? "TBW102" : topic).getBrokerDatas().get(0);
    }

    private static void awaitMasterInRoute(ApacheBroker master) {
        Await.until(master.address() + " as id 0 in the NameServer's route", ROLE_CHANGE_TIMEOUT,
            () -> master.address().equals(route().getBrokerAddrs().get(0L)));
    }

    private static SendResult send() throws Exception {
        return producer.send(new Message(topic, "TagA", "controller mode".getBytes(StandardCharsets.UTF_8)));
    }

    private static void sendOk(int count) throws Exception {
        for (int i = 0; i < count; i++) {
            SendResult result = send();
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
    }
}
