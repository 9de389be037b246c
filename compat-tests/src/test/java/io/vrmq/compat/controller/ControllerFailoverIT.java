package io.vrmq.compat.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import io.vrmq.compat.support.VrmqController;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.body.EpochEntryCache;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
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
 * Issue 10's failover scenario with our servers only: three of our controllers (Ratis), one NameServer and three of
 * our brokers of one broker set in controller mode with allAckInSyncStateSet, while the official 5.5.0 producer sends
 * SYNC messages without pause. In order: SIGKILL of the master (a new one is elected and takes writes); the old master
 * comes back as a slave consistent with the new master; SIGKILL of the controller leader (brokers keep serving, a new
 * leader is elected) and then of the second master (a third takes over: two master failovers); the killed controller
 * rejoins from its store; at the end a new consumer group gets every message that was answered SEND_OK. Kill-to-
 * elected and kill-to-first-SEND_OK times are printed, not asserted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ControllerFailoverIT {

    private static final String BROKER_NAME = "broker-fo";
    private static final int BROKER_COUNT = 3;
    private static final int CONTROLLER_COUNT = 3;
    private static final int QUEUE_COUNT = 4;
    /** Enough traffic between events that each happens under load. */
    private static final int SENDS_BETWEEN_EVENTS = 200;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(90);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static List<VrmqController> controllers;
    private static List<VrmqBroker> group;
    private static BrokerClients clients;
    private static DefaultMQAdminExt admin;
    private static String topic;
    private static SequencedProducer sending;
    private static VrmqBroker killedInSecondFailover;

    @BeforeAll
    static void startControllersNameServerBrokersAndTraffic() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        clients = new BrokerClients(resources, nameServer.address());
        admin = clients.admin();
        controllers = VrmqController.startGroup(dir.resolve("controllers"), CONTROLLER_COUNT, Map.of());
        controllers.forEach(resources::closeLater);
        awaitControllerLeader();
        String controllerAddr = controllers.stream().map(VrmqController::address).collect(Collectors.joining(";"));
        group = new ArrayList<>();
        for (int i = 0; i < BROKER_COUNT; i++) {
            group.add(brokers.start(BrokerSettings.defaults(BROKER_NAME, nameServer.address(), dir.resolve("b" + i)),
                ControllerModeKeys.allAck(controllerAddr)));
        }
        Await.until("all " + BROKER_COUNT + " brokers in the SyncStateSet", START_TIMEOUT,
            () -> replicasInfo().getInSyncReplicas().size() == BROKER_COUNT);
        topic = "ControllerFailover";
        admin.createAndUpdateTopicConfig(replicasInfo().getMasterAddress(),
            new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT));
        for (VrmqBroker broker : group) {
            Await.until(topic + " on " + broker, START_TIMEOUT,
                () -> admin.examineTopicConfig(broker.address(), topic) != null);
        }
        DefaultMQProducer producer = clients.fastRoutingProducer("failover_producer");
        sending = SequencedProducer.start(producer, topic);
        awaitMoreAcknowledged(SENDS_BETWEEN_EVENTS);
    }

    @AfterAll
    static void stopSending() throws InterruptedException {
        if (sending != null) {
            sending.close();
        }
    }

    @Test
    @Order(1)
    void killingTheMasterElectsAnotherThatTakesWrites() {
        failOver(awaitReplicasInfo(), "first");
    }

    @Test
    @Order(2)
    void theOldMasterComesBackAsASlaveConsistentWithTheNewMaster() throws Exception {
        VrmqBroker oldMaster = group.stream().filter(broker -> !broker.process().isAlive()).findFirst()
            .orElseThrow();
        oldMaster.start();
        Await.until(oldMaster + " back in the SyncStateSet", FAILOVER_TIMEOUT, () -> replicasInfo()
            .getInSyncReplicas().stream().anyMatch(replica -> replica.getAlive()
                && replica.getBrokerAddress().equals(oldMaster.address())));
        String master = replicasInfo().getMasterAddress();
        assertNotEquals(oldMaster.address(), master);
        Await.until(oldMaster + " has the master's epochs and catches up", FAILOVER_TIMEOUT, () -> {
            EpochEntryCache mine = admin.getBrokerEpochCache(oldMaster.address());
            EpochEntryCache theirs = admin.getBrokerEpochCache(master);
            return epochs(mine).equals(epochs(theirs)) && mine.getMaxOffset() > 0;
        });
        // Whatever the old master wrote that no replica acknowledged before the kill is cut at the handshake.
        Files.readString(oldMaster.settings().storePathRootDir().resolve("vrmq-broker.log")).lines()
            .filter(line -> line.contains("consistent point with the master")).reduce((first, last) -> last)
            .ifPresent(line -> System.out.println("old master rejoined: " + line.substring(line.indexOf("consistent"))));
        awaitMoreAcknowledged(SENDS_BETWEEN_EVENTS);
    }

    @Test
    @Order(3)
    void killingTheControllerLeaderThenTheSecondMasterStillFailsOver() throws Exception {
        VrmqController leader = awaitControllerLeader();
        int acknowledgedBefore = sending.acknowledgedCount();
        leader.kill();
        awaitMoreAcknowledged(SENDS_BETWEEN_EVENTS);
        VrmqController newLeader = awaitControllerLeader();
        assertNotEquals(leader.address(), newLeader.address());
        System.out.printf("controller leader %s killed; %d SEND_OK while %s took over%n", leader.selfId(),
            sending.acknowledgedCount() - acknowledgedBefore, newLeader.selfId());

        killedInSecondFailover = failOver(awaitReplicasInfo(), "second");

        leader.start();
        Await.until("the restarted controller " + leader.selfId() + " follows " + newLeader.selfId(),
            FAILOVER_TIMEOUT, () -> newLeader.address().equals(admin.getControllerMetaData(leader.address())
                .getControllerLeaderAddress()));
        Await.until(leader.selfId() + " caught up with the group's state", FAILOVER_TIMEOUT,
            () -> leader.adminGet("/api/v1/controller/groups").contains("\"masterEpoch\":"
                + replicasInfo().getMasterEpoch()));
    }

    @Test
    @Order(4)
    void everyMessageAnsweredSendOkIsConsumed() throws Exception {
        killedInSecondFailover.start();
        awaitMoreAcknowledged(SENDS_BETWEEN_EVENTS);
        sending.close();
        Set<Long> acknowledged = sending.acknowledged();
        Set<String> expected = acknowledged.stream().map(sequence -> "seq-" + sequence).collect(Collectors.toSet());
        Set<String> consumed = ConsumedKeys.consumeUntilAll(clients, "failover_consumer", topic, "*", expected,
            CONSUME_TIMEOUT);
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(consumed);
        System.out.printf("%d messages answered SEND_OK, %d distinct consumed, %d sends failed during failovers%n",
            acknowledged.size(), consumed.size(), sending.failureCount());
        assertTrue(missing.isEmpty(), "acknowledged but never consumed: " + missing);
    }

    /**
     * SIGKILLs the master of {@code before} and waits until the controller elected another and the producer got a
     * SEND_OK after the kill; prints both times. Returns the killed broker.
     */
    private static VrmqBroker failOver(BrokerReplicasInfo.ReplicasInfo before, String which) {
        VrmqBroker master = byAddress(before.getMasterAddress());
        int acknowledgedBefore = sending.acknowledgedCount();
        long killedNanos = System.nanoTime();
        master.kill();
        long[] electedNanos = new long[1];
        String[] newMaster = new String[1];
        Await.until("a master other than " + master + " elected", FAILOVER_TIMEOUT, () -> {
            BrokerReplicasInfo.ReplicasInfo now = replicasInfo();
            boolean isElected = now != null && now.getMasterAddress() != null
                && !now.getMasterAddress().equals(master.address()) && now.getMasterEpoch() > before.getMasterEpoch();
            electedNanos[0] = System.nanoTime();
            newMaster[0] = isElected ? now.getMasterAddress() : null;
            return isElected;
        });
        Await.until("a SEND_OK from the new master " + newMaster[0], FAILOVER_TIMEOUT,
            () -> sending.firstOkNanosFrom(newMaster[0], killedNanos) > 0);
        long firstOkNanos = sending.firstOkNanosFrom(newMaster[0], killedNanos);
        System.out.printf("%s failover: kill to elected %d ms, kill to first SEND_OK %d ms (%d SEND_OK before)%n",
            which, TimeUnit.NANOSECONDS.toMillis(electedNanos[0] - killedNanos),
            TimeUnit.NANOSECONDS.toMillis(firstOkNanos - killedNanos), acknowledgedBefore);
        awaitMoreAcknowledged(SENDS_BETWEEN_EVENTS);
        return master;
    }

    private static void awaitMoreAcknowledged(int count) {
        int target = sending.acknowledgedCount() + count;
        Await.until(count + " more SEND_OK", FAILOVER_TIMEOUT, () -> sending.acknowledgedCount() >= target);
    }

    /** The controller set's view of the broker set, once a leader answers (after a leader change, a moment later). */
    private static BrokerReplicasInfo.ReplicasInfo awaitReplicasInfo() {
        BrokerReplicasInfo.ReplicasInfo[] info = new BrokerReplicasInfo.ReplicasInfo[1];
        Await.until("the controller leader's view of " + BROKER_NAME, FAILOVER_TIMEOUT,
            () -> (info[0] = replicasInfo()) != null && info[0].getMasterAddress() != null);
        return info[0];
    }

    /** The controller set's view of the broker set, from whichever controller leads; null while none answers. */
    private static BrokerReplicasInfo.ReplicasInfo replicasInfo() {
        try {
            String leader = admin.getControllerMetaData(anyLiveController().address()).getControllerLeaderAddress();
            return leader == null ? null : admin.getInSyncStateData(leader, List.of(BROKER_NAME))
                .getReplicasInfoTable().get(BROKER_NAME);
        } catch (Exception e) {
            return null;    // a leader change in progress
        }
    }

    private static VrmqController awaitControllerLeader() {
        VrmqController[] leader = new VrmqController[1];
        Await.until("a controller leader", FAILOVER_TIMEOUT, () -> {
            String address = admin.getControllerMetaData(anyLiveController().address()).getControllerLeaderAddress();
            leader[0] = controllers.stream().filter(node -> node.address().equals(address)
                && node.process().isAlive()).findFirst().orElse(null);
            return leader[0] != null;
        });
        return leader[0];
    }

    private static VrmqController anyLiveController() {
        return controllers.stream().filter(node -> node.process().isAlive()).findFirst().orElseThrow();
    }

    private static VrmqBroker byAddress(String address) {
        return group.stream().filter(broker -> broker.address().equals(address)).findFirst()
            .orElseThrow(() -> new AssertionError("no broker of the group at " + address));
    }

    private static List<String> epochs(EpochEntryCache cache) {
        return cache.getEpochList().stream().map(entry -> entry.getEpoch() + "-" + entry.getStartOffset())
            .toList();
    }
}
