package io.vrmq.compat.ha;

import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.CommitLogOffsets;
import io.vrmq.compat.broker.support.ReplicaConfig;
import io.vrmq.compat.broker.support.TestMessages;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.ApacheBroker;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication between our broker and a real Apache RocketMQ 5.5.0 broker, both ways, over RocketMQ's classic HA
 * protocol: an Apache SLAVE follows our master (learning its HA address from our NameServer, where our master
 * registered it), and our SLAVE follows an Apache master. Either way the slave ends at the master's commitLogMaxOffset
 * and holds each message at the commitLogOffset the producer's SendResult names. Both sides use 16 MiB segments
 * (the HA protocol needs master and slave to agree). One NameServer (ours) serves the class.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ApacheReplicationInteropIT {

    private static final int MESSAGE_COUNT = 100;
    private static final String TAG = "TagA";
    /** The Apache broker registers 10 s after start, and only then learns its master's addresses. */
    private static final Duration REPLICATION_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static BrokerClients clients;

    @BeforeAll
    static void startNameServer() {
        nameServer = resources.nameServer(dir.resolve("namesrv"), NameServerSettings.defaults(dir.resolve("namesrv")));
        clients = new BrokerClients(resources, nameServer.address());
    }

    @Test
    void anApacheSlaveCopiesOurMastersCommitLog() throws Exception {
        String brokerName = "broker-ours-to-apache";
        VrmqBroker master = brokers.start(BrokerSettings.defaults(brokerName, nameServer.address(),
            dir.resolve("our-master")), ReplicaConfig.master(ReplicaConfig.ASYNC_MASTER).keys());
        DefaultMQProducer producer = clients.producer(uniqueName("to_apache_producer"));
        String topic = Topics.create(producer, uniqueName("ToApache"));
        ApacheBroker slave = resources.broker(dir.resolve("apache-slave"), BrokerSettings.CLUSTER, brokerName,
            List.of(nameServer), Map.of("brokerRole", ReplicaConfig.SLAVE,
                "brokerId", Long.toString(ReplicaConfig.FIRST_SLAVE_ID)));

        List<Message> sent = series(topic, "to-apache", TAG, MESSAGE_COUNT);
        List<SendResult> results = TestMessages.sendEachOk(producer, sent);
        DefaultMQAdminExt admin = clients.admin();
        CommitLogOffsets.awaitSlaveCaughtUp(admin, master.address(), slave.address(), REPLICATION_TIMEOUT);

        assertStoredAtTheirOffsets(admin, slave.address(), topic, sent, results);
    }

    @Test
    void ourSlaveCopiesAnApacheMastersCommitLogAndItsTopics() throws Exception {
        String brokerName = "broker-apache-to-ours";
        ApacheBroker master = resources.broker(dir.resolve("apache-master"), BrokerSettings.CLUSTER, brokerName,
            List.of(nameServer), Map.of("brokerIP2", "127.0.0.1"));    // the HA address it registers
        VrmqBroker slave = brokers.start(BrokerSettings.defaults(brokerName, nameServer.address(),
            dir.resolve("our-slave")), ReplicaConfig.slave(ReplicaConfig.FIRST_SLAVE_ID)
            .withHaMasterAddress(master.haAddress()).withFastMetadataSync().keys());
        DefaultMQProducer producer = clients.producer(uniqueName("from_apache_producer"));
        String topic = Topics.create(producer, uniqueName("FromApache"));

        List<Message> sent = series(topic, "from-apache", TAG, MESSAGE_COUNT);
        List<SendResult> results = TestMessages.sendEachOk(producer, sent);
        DefaultMQAdminExt admin = clients.admin();
        CommitLogOffsets.awaitSlaveCaughtUp(admin, master.address(), slave.address(), REPLICATION_TIMEOUT);

        assertStoredAtTheirOffsets(admin, slave.address(), topic, sent, results);
        TopicConfig[] copied = new TopicConfig[1];
        Await.until("the config of " + topic + " copied to " + slave, REPLICATION_TIMEOUT, () -> {
            copied[0] = admin.examineTopicConfig(slave.address(), topic);
            return copied[0] != null;
        });
        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, copied[0].getWriteQueueNums(), copied[0].toString());
    }


    /** The first, a middle and the last message, read from the slave at the offsets the master's results gave. */
    private static void assertStoredAtTheirOffsets(DefaultMQAdminExt admin, String slaveAddr, String topic,
                                                   List<Message> sent, List<SendResult> results) throws Exception {
        for (int index : List.of(0, sent.size() / 2, sent.size() - 1)) {
            TestMessages.assertIntact(sent.get(index), CommitLogOffsets.viewMessageAt(admin, slaveAddr, topic,
                results.get(index).getOffsetMsgId()));
        }
    }
}
