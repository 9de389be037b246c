package io.vrmq.compat.ha;

import static io.vrmq.compat.broker.support.TestMessages.keys;
import static io.vrmq.compat.broker.support.TestMessages.paddedSeries;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.CommitLogOffsets;
import io.vrmq.compat.broker.support.ConsumedKeys;
import io.vrmq.compat.broker.support.ReplicaConfig;
import io.vrmq.compat.broker.support.ReplicaPair;
import io.vrmq.compat.broker.support.Routes;
import io.vrmq.compat.broker.support.TestMessages;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.QueryResult;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our ASYNC_MASTER and our SLAVE (brokerId 1, slaveReadEnable) with 1 MiB segments, driven by the official 5.5.0
 * producer, consumer and admin: the route lists both, the slave copies every CommitLog byte (across segment rolls)
 * and the topic's config, and once the master is SIGKILLed a new consumer group gets every message from the slave,
 * where the admin also finds them by key and by message id.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class MasterSlaveFailoverIT {

    private static final String BROKER_NAME = "broker-failover";
    private static final String TAG = "TagA";
    /** 300 bodies of 8 KiB: about 2.4 MiB, so the 1 MiB segments roll twice on both sides. */
    private static final int MESSAGE_COUNT = 300;
    private static final int BODY_BYTES = 8 * 1024;
    private static final int QUERY_MAX_MESSAGES = 32;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration REPLICATION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    @Test
    void theSlaveHoldsEverythingTheMasterStoredAndServesItAfterTheMasterDies() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        BrokerClients clients = new BrokerClients(resources, nameServer.address());
        ReplicaPair pair = ReplicaPair.start(brokers, dir, BROKER_NAME, nameServer.address(),
            ReplicaConfig.master(ReplicaConfig.ASYNC_MASTER).withSmallSegments().withSlaveReadEnable(),
            ReplicaConfig.slave(ReplicaConfig.FIRST_SLAVE_ID).withSmallSegments().withSlaveReadEnable()
                .withFastMetadataSync());
        String masterAddr = pair.master().address();
        String slaveAddr = pair.slave().address();
        DefaultMQAdminExt admin = clients.admin();
        DefaultMQProducer producer = clients.producer(uniqueName("failover_producer"));
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);    // keep the bodies as large on disk as sent
        String topic = Topics.create(producer, uniqueName("Failover"));
        Routes.awaitBrokerAddrs(admin, topic, BROKER_NAME,
            Map.of(ReplicaConfig.MASTER_ID, masterAddr, ReplicaConfig.FIRST_SLAVE_ID, slaveAddr), ROUTE_TIMEOUT);

        List<Message> sent = paddedSeries(topic, "failover", TAG, MESSAGE_COUNT, BODY_BYTES);
        List<SendResult> results = TestMessages.sendEachOk(producer, sent);
        long replicatedEnd = CommitLogOffsets.awaitSlaveCaughtUp(admin, masterAddr, slaveAddr, REPLICATION_TIMEOUT);
        assertTrue(replicatedEnd > 2L * ReplicaConfig.SMALL_COMMIT_LOG_FILE_BYTES,
            "the messages should span three segments; CommitLog end: " + replicatedEnd);
        TopicConfig slaveTopic = awaitTopicConfig(admin, slaveAddr, topic);
        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, slaveTopic.getWriteQueueNums(), slaveTopic.toString());
        assertEquals(Topics.AUTO_CREATED_QUEUE_COUNT, slaveTopic.getReadQueueNums(), slaveTopic.toString());

        pair.master().kill();
        Routes.awaitBrokerAddrs(admin, topic, BROKER_NAME, Map.of(ReplicaConfig.FIRST_SLAVE_ID, slaveAddr),
            ROUTE_TIMEOUT);

        Set<String> sentKeys = Set.copyOf(keys(sent));
        assertEquals(sentKeys, ConsumedKeys.consumeUntilAll(clients, uniqueName("failover_group"), topic, TAG,
            sentKeys, RECEIVE_TIMEOUT), "keys a new group consumed from the slave");
        DefaultMQAdminExt queryAdmin = clients.admin();    // its route cache starts after the master's death
        Message probe = sent.get(MESSAGE_COUNT / 2);
        QueryResult byKey = queryAdmin.queryMessage(topic, probe.getKeys(), QUERY_MAX_MESSAGES, 0, Long.MAX_VALUE);
        assertEquals(1, byKey.getMessageList().size(), "messages with key " + probe.getKeys() + ": " + byKey);
        TestMessages.assertIntact(probe, byKey.getMessageList().get(0));
        SendResult probeResult = results.get(MESSAGE_COUNT / 2);
        QueryResult byId = queryAdmin.queryMessageByUniqKey(null, topic, probeResult.getMsgId(), QUERY_MAX_MESSAGES,
            0, Long.MAX_VALUE);
        assertEquals(1, byId.getMessageList().size(), "messages with id " + probeResult.getMsgId() + ": " + byId);
        TestMessages.assertIntact(probe, byId.getMessageList().get(0));
    }


    /** The slave learns of a topic created on its master at its next metadata sync. */
    private static TopicConfig awaitTopicConfig(DefaultMQAdminExt admin, String brokerAddr, String topic) {
        TopicConfig[] config = new TopicConfig[1];
        Await.until("the config of " + topic + " on " + brokerAddr, REPLICATION_TIMEOUT, () -> {
            config[0] = admin.examineTopicConfig(brokerAddr, topic);
            return config[0] != null;
        });
        return config[0];
    }
}
