package io.vrmq.compat.controller;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.ConsumedKeys;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.controller.support.ControllerModeKeys;
import io.vrmq.compat.controller.support.SequencedProducer;
import io.vrmq.compat.support.ApacheBroker;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import io.vrmq.compat.support.VrmqController;
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
 * One broker set of one of our brokers and one Apache RocketMQ 5.5.0 broker, both in controller mode with
 * allAckInSyncStateSet, under our controller: AutoSwitch HA between the two implementations both ways. Ours starts
 * first and is master; the Apache broker follows it and joins the SyncStateSet, so every SEND_OK means the Apache slave
 * acknowledged. SIGKILL of ours makes the controller elect the Apache broker; ours comes back, follows the Apache master
 * (handshake, epoch check, truncation) and joins its SyncStateSet, so SEND_OKs then mean our slave acknowledged. SIGKILL
 * of the Apache master makes ours master again, and a new consumer group gets every message answered SEND_OK from it:
 * our broker holds everything it copied from the Apache master.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MixedBrokerGroupIT {

    private static final String CLUSTER = BrokerSettings.CLUSTER;
    private static final String BROKER_NAME = "broker-mixed";
    private static final int QUEUE_COUNT = 4;
    private static final int SENDS_BETWEEN_EVENTS = 200;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static VrmqController controller;
    private static VrmqBroker ours;
    private static ApacheBroker apache;
    private static BrokerClients clients;
    private static DefaultMQAdminExt admin;
    private static String topic;
    private static SequencedProducer sending;

    @BeforeAll
    static void startOurControllerNameServerAndBothBrokers() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        controller = resources.controller(dir.resolve("controller"), Map.of());
        clients = new BrokerClients(resources, nameServer.address());
        admin = clients.admin();
        ours = brokers.start(BrokerSettings.defaults(BROKER_NAME, nameServer.address(), dir.resolve("ours")),
            ControllerModeKeys.allAck(controller.address()));
        Await.until(ours + " elected", TIMEOUT, () -> isMaster(ours.address()));
        apache = resources.broker(dir.resolve("apache"), CLUSTER, BROKER_NAME, List.of(nameServer),
            Map.of("enableControllerMode", "true", "controllerAddr", controller.address(), "brokerId", "-1",
                "brokerRole", "SLAVE", "allAckInSyncStateSet", "true", "brokerIP2", "127.0.0.1",
                "syncBrokerMetadataPeriod", "2000", "checkSyncStateSetPeriod", "2000"));
        Await.until("the Apache slave in our master's SyncStateSet", TIMEOUT, () -> inSyncCount() == 2);
        topic = "MixedBrokerGroup";
        admin.createAndUpdateTopicConfig(ours.address(), new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT));
        Await.until(topic + " copied to the Apache slave", TIMEOUT,
            () -> admin.examineTopicConfig(apache.address(), topic) != null);
        DefaultMQProducer producer = clients.fastRoutingProducer("mixed_group_producer");
        sending = resources.closeLater(SequencedProducer.start(producer, topic));
    }

    @Test
    @Order(1)
    void ourMasterIsAcknowledgedByTheApacheSlave() {
        awaitMoreAcknowledgedFrom(ours.address());
    }

    @Test
    @Order(2)
    void theApacheBrokerTakesOverAndOursFollowsIt() throws Exception {
        ours.kill();
        Await.until("the controller elects the Apache broker", TIMEOUT, () -> isMaster(apache.address()));
        awaitMoreAcknowledgedFrom(apache.address());
        ours.start();
        Await.until(ours + " in the Apache master's SyncStateSet", TIMEOUT,
            () -> isMaster(apache.address()) && inSyncCount() == 2);
        awaitMoreAcknowledgedFrom(apache.address());
    }

    @Test
    @Order(3)
    void oursHoldsEverythingAcknowledgedOnceTheApacheMasterDies() throws Exception {
        apache.process().kill();
        Await.until(ours + " elected again", TIMEOUT, () -> isMaster(ours.address()));
        awaitMoreAcknowledgedFrom(ours.address());
        sending.close();
        Set<String> expected = sending.acknowledged().stream().map(sequence -> "seq-" + sequence)
            .collect(Collectors.toSet());
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(ConsumedKeys.consumeUntilAll(clients, "mixed_group_consumer", topic, "*", expected,
            TIMEOUT));
        assertTrue(missing.isEmpty(), "acknowledged but never consumed: " + missing);
    }

    /** Waits for SENDS_BETWEEN_EVENTS more SEND_OK, some of them stored by {@code brokerAddr}. */
    private static void awaitMoreAcknowledgedFrom(String brokerAddr) {
        long sinceNanos = System.nanoTime();
        int target = sending.acknowledgedCount() + SENDS_BETWEEN_EVENTS;
        Await.until(SENDS_BETWEEN_EVENTS + " more SEND_OK, stored by " + brokerAddr, TIMEOUT,
            () -> sending.acknowledgedCount() >= target && sending.lastOkNanosFrom(brokerAddr) > sinceNanos);
    }

    private static boolean isMaster(String brokerAddr) throws Exception {
        return brokerAddr.equals(replicasInfo().getMasterAddress());
    }

    private static int inSyncCount() throws Exception {
        return replicasInfo().getInSyncReplicas().size();
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
