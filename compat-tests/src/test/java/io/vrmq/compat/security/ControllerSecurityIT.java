package io.vrmq.compat.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.controller.support.ControllerModeKeys;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import io.vrmq.compat.support.VrmqController;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
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
 * Controller mode with ACL and TLS everywhere: our controller enforces TLS (its admin API on HTTPS) and signs what it
 * sends with innerClientAuthenticationCredentials; two of our brokers in controller mode enforce TLS and
 * authenticate every request with no whitelist. The brokers reach the controller over TLS, replicate over TLS
 * (AutoSwitch HA against an enforcing master) until both are in the SyncStateSet, and the official 5.5.0 producer
 * (useTLS, AclClientRPCHook) gets SEND_OK. After an admin election the slave becomes master through the controller's
 * signed NOTIFY_BROKER_ROLE_CHANGED (1008) alone: its own poll of the controller (syncBrokerMetadataPeriod) is set
 * to ten minutes, longer than the test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ControllerSecurityIT {
    private static final String BROKER_NAME = "broker-secure";
    private static final String SUPER_USER = "rocketmq";
    private static final String SUPER_SECRET = "12345678";
    private static final String INNER_CREDENTIALS = "{\"accessKey\":\"inner\",\"secretKey\":\"inner-secret\"}";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long NO_POLL_MS = 600_000;
    /** The broker's first CONTROLLER_GET_REPLICA_INFO after it runs (ControllerAgent's FIRST_REPLICA_INFO_DELAY_MS). */
    private static final Duration FIRST_POLL_DELAY = Duration.ofSeconds(3);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static VrmqController controller;
    private static VrmqBroker first;
    private static VrmqBroker second;
    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;
    private static String topic;

    @BeforeAll
    static void startSecureControllerAndBrokers() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        controller = resources.controller(dir.resolve("controller"), Map.of("tls.server.mode", "enforcing",
            "adminTls", true, "innerClientAuthenticationCredentials", INNER_CREDENTIALS));
        first = brokers.start(BrokerSettings.defaults(BROKER_NAME, nameServer.address(), dir.resolve("first")),
            secureControllerMode());
        second = brokers.start(BrokerSettings.defaults(BROKER_NAME, nameServer.address(), dir.resolve("second")),
            secureControllerMode());
        admin = new DefaultMQAdminExt(AclClients.hook(SUPER_USER, SUPER_SECRET), 5_000);
        admin.setNamesrvAddr(nameServer.address());
        admin.setUseTLS(true);
        admin.setInstanceName(OfficialClients.uniqueInstanceName("secure-admin"));
        admin.start();
        resources.closeClientLater(admin::shutdown);
        producer = new DefaultMQProducer("secure_controller_producer", AclClients.hook(SUPER_USER, SUPER_SECRET));
        producer.setNamesrvAddr(nameServer.address());
        producer.setUseTLS(true);
        producer.setPollNameServerInterval(1_000);
        producer.setInstanceName(OfficialClients.uniqueInstanceName("secure-producer"));
        producer.start();
        resources.closeClientLater(producer::shutdown);
    }

    private static Map<String, Object> secureControllerMode() {
        Map<String, Object> keys = new HashMap<>(ControllerModeKeys.allAck(controller.address()));
        keys.put("syncBrokerMetadataPeriod", NO_POLL_MS);
        keys.put("tls.server.mode", "enforcing");
        keys.put("authenticationEnabled", true);
        keys.put("initAuthenticationUser", "{\"username\":\"" + SUPER_USER + "\",\"password\":\"" + SUPER_SECRET
            + "\"}");
        keys.put("innerClientAuthenticationCredentials", INNER_CREDENTIALS);
        return keys;
    }

    @Test
    @Order(1)
    void theBrokersReplicateOverTlsAndTheSignedProducerSends() throws Exception {
        Await.until("both brokers in the SyncStateSet", TIMEOUT, () -> replicasInfo().getInSyncReplicas().size() == 2);
        String master = replicasInfo().getMasterAddress();
        topic = "SecureControllerTopic";
        admin.createAndUpdateTopicConfig(master, new TopicConfig(topic, 2, 2));
        VrmqBroker slave = master.equals(first.address()) ? second : first;
        Await.until(topic + " copied to the slave", TIMEOUT, () -> admin.examineTopicConfig(slave.address(), topic)
            != null);
        Await.until("SEND_OK", TIMEOUT, () -> send() == SendStatus.SEND_OK);
        assertTrue(controller.adminGet("/api/v1/controller").contains("\"isLeaderReady\":true"),
            "the controller's admin API answers over HTTPS");
    }

    @Test
    @Order(2)
    void anElectedSlaveBecomesMasterThroughTheSignedRoleChangeNotice() throws Exception {
        BrokerReplicasInfo.ReplicasInfo before = replicasInfo();
        VrmqBroker slave = before.getMasterAddress().equals(first.address()) ? second : first;
        awaitFirstPollOver(slave);
        long slaveId = before.getInSyncReplicas().stream().filter(replica -> replica.getBrokerAddress()
            .equals(slave.address())).findFirst().orElseThrow().getBrokerId();
        admin.electMaster(controller.address(), BrokerSettings.CLUSTER, BROKER_NAME, slaveId);
        Await.until(slave + " registered as master with the NameServer", TIMEOUT,
            () -> slave.address().equals(masterInRoute()));
        Await.until("SEND_OK from the new master", TIMEOUT, () -> send() == SendStatus.SEND_OK);
        assertEquals(slave.address(), replicasInfo().getMasterAddress());
    }

    /**
     * A broker in controller mode asks the controller for its set once, {@link #FIRST_POLL_DELAY} after it runs, and
     * then every syncBrokerMetadataPeriod (ten minutes here): past that first poll, only 1008 can tell it anything.
     * No log line or view marks the poll, so this waits a bounded time past the broker's "running" line.
     */
    private static void awaitFirstPollOver(VrmqBroker broker) throws InterruptedException {
        broker.process().awaitLogLine("controller mode running", TIMEOUT);
        Thread.sleep(FIRST_POLL_DELAY.plusSeconds(2).toMillis());
    }

    private static SendStatus send() throws Exception {
        return producer.send(new Message(topic, "TagA", "secure".getBytes(StandardCharsets.UTF_8))).getSendStatus();
    }

    private static String masterInRoute() throws Exception {
        BrokerData data = admin.examineBrokerClusterInfo().getBrokerAddrTable().get(BROKER_NAME);
        return data == null ? null : data.getBrokerAddrs().get(0L);
    }

    private static BrokerReplicasInfo.ReplicasInfo replicasInfo() throws Exception {
        BrokerReplicasInfo.ReplicasInfo set = admin.getInSyncStateData(controller.address(), List.of(BROKER_NAME))
            .getReplicasInfoTable().get(BROKER_NAME);
        if (set == null) {
            throw new IllegalStateException("no replicas info for " + BROKER_NAME + " yet");
        }
        return set;
    }
}
