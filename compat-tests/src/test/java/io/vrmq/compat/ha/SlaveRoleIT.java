package io.vrmq.compat.ha;

import static io.vrmq.compat.broker.support.TestMessages.keys;
import static io.vrmq.compat.broker.support.TestMessages.sendEachOk;
import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.CommitLogOffsets;
import io.vrmq.compat.broker.support.ConsumedKeys;
import io.vrmq.compat.broker.support.RawRequests;
import io.vrmq.compat.broker.support.ReplicaConfig;
import io.vrmq.compat.broker.support.ReplicaPair;
import io.vrmq.compat.broker.support.Routes;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.admin.TopicOffset;
import org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable;
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
 * Our SLAVE (following its master's HA port named by haMasterAddress) as a writer and across a restart: it refuses
 * sends, and restarted on its store it keeps what it had and copies only what it missed, so after the master's death
 * it serves each message exactly once. One master/slave pair serves the class; the restart test runs last because
 * it kills the master.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlaveRoleIT {

    private static final String BROKER_NAME = "broker-slave-role";
    private static final String TAG = "TagA";
    private static final int BATCH = 40;
    private static final long REQUEST_TIMEOUT_MS = 5_000;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration REPLICATION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static BrokerClients clients;
    private static ReplicaPair pair;
    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;
    private static String topic;

    @BeforeAll
    static void startMasterAndSlave() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        clients = new BrokerClients(resources, nameServer.address());
        pair = ReplicaPair.start(brokers, dir, BROKER_NAME, nameServer.address(),
            ReplicaConfig.master(ReplicaConfig.ASYNC_MASTER),
            master -> ReplicaConfig.slave(ReplicaConfig.FIRST_SLAVE_ID).withHaMasterAddress(master.haAddress())
                .withSlaveReadEnable().withFastMetadataSync());
        admin = clients.admin();
        producer = clients.producer(uniqueName("slave_role_producer"));
        topic = Topics.create(producer, uniqueName("SlaveRole"));
        CommitLogOffsets.awaitSlaveCaughtUp(admin, pair.master().address(), pair.slave().address(),
            REPLICATION_TIMEOUT);
    }

    @Test
    @Order(1)
    void aSendToTheSlaveIsRefusedWithServiceNotAvailableAndNotStored() throws Exception {
        String slaveAddr = pair.slave().address();
        long endBefore = CommitLogOffsets.maxOffset(admin, slaveAddr);

        RemotingCommand response = clients.remotingClient().invokeSync(slaveAddr, RawRequests.sendV2(
            uniqueName("raw_producer"), topic, 0, "refused".getBytes(StandardCharsets.UTF_8)), REQUEST_TIMEOUT_MS);

        assertEquals(ResponseCode.SERVICE_NOT_AVAILABLE, response.getCode(), "SEND_MESSAGE_V2 to the slave: "
            + response);
        assertEquals(endBefore, CommitLogOffsets.maxOffset(admin, slaveAddr), "the slave's CommitLog end");
    }

    @Test
    @Order(2)
    void aRestartedSlaveKeepsItsStoreAndCopiesOnlyWhatItMissed() throws Exception {
        String masterAddr = pair.master().address();
        String slaveAddr = pair.slave().address();
        List<Message> sent = new ArrayList<>(send(series(topic, "before-stop", TAG, BATCH)));
        long stoppedAt = CommitLogOffsets.awaitSlaveCaughtUp(admin, masterAddr, slaveAddr, REPLICATION_TIMEOUT);
        pair.slave().stop();
        sent.addAll(send(series(topic, "while-stopped", TAG, BATCH)));

        pair.master().process().suspend();    // frozen, the master can send the restarted slave nothing yet
        long restartedAt;
        try {
            pair.slave().start();
            restartedAt = CommitLogOffsets.maxOffset(admin, slaveAddr);
        } finally {
            pair.master().process().resume();
        }
        assertEquals(stoppedAt, restartedAt, "the restarted slave's CommitLog end before its master could send");
        CommitLogOffsets.awaitSlaveCaughtUp(admin, masterAddr, slaveAddr, REPLICATION_TIMEOUT);

        pair.master().kill();
        Routes.awaitBrokerAddrs(admin, topic, BROKER_NAME, Map.of(ReplicaConfig.FIRST_SLAVE_ID, slaveAddr),
            ROUTE_TIMEOUT);
        Set<String> sentKeys = Set.copyOf(keys(sent));
        assertEquals(sentKeys, ConsumedKeys.consumeUntilAll(clients, uniqueName("slave_role_group"), topic, TAG,
            sentKeys, RECEIVE_TIMEOUT), "keys a new group consumed from the slave");
        assertEquals(sent.size() + 1, storedMessageCount(admin, topic),
            "messages in the slave's consume queues of " + topic + " (the sent ones and the one that created it)");
    }

    private static List<Message> send(List<Message> messages) throws Exception {
        sendEachOk(producer, messages);
        return messages;
    }

    /** Entries in the topic's consume queues on the broker its route selects (the slave once the master is gone). */
    private static long storedMessageCount(DefaultMQAdminExt admin, String topic) throws Exception {
        TopicStatsTable stats = admin.examineTopicStats(topic);
        long count = 0;
        for (TopicOffset offsets : stats.getOffsetTable().values()) {
            count += offsets.getMaxOffset() - offsets.getMinOffset();
        }
        return count;
    }
}
