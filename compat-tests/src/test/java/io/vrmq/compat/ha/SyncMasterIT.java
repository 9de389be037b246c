package io.vrmq.compat.ha;

import static io.vrmq.compat.broker.support.TestMessages.series;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.CommitLogOffsets;
import io.vrmq.compat.broker.support.ReplicaConfig;
import io.vrmq.compat.broker.support.ReplicaPair;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our SYNC_MASTER with the official 5.5.0 producer (RocketMQ 4.x semantics): while a slave is connected, SEND_OK
 * means the slave already holds the message; once the slave is stopped, sends answer SLAVE_NOT_AVAILABLE and the
 * message is stored on the master all the same.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SyncMasterIT {

    private static final String BROKER_NAME = "broker-sync";
    private static final String TAG = "TagA";
    private static final int ACKNOWLEDGED_COUNT = 20;
    /** Above the broker's slaveTimeout (3 s), so a slow acknowledgement shows as FLUSH_SLAVE_TIMEOUT, not a timeout. */
    private static final int SEND_TIMEOUT_MS = 10_000;
    private static final Duration SLAVE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    @Test
    void sendOkWaitsForTheSlaveAndWithoutASlaveTheSendIsStoredAsSlaveNotAvailable() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        BrokerClients clients = new BrokerClients(resources, nameServer.address());
        ReplicaPair pair = ReplicaPair.start(brokers, dir, BROKER_NAME, nameServer.address(),
            ReplicaConfig.master(ReplicaConfig.SYNC_MASTER), ReplicaConfig.slave(ReplicaConfig.FIRST_SLAVE_ID));
        DefaultMQAdminExt admin = clients.admin();
        DefaultMQProducer producer = clients.producer(uniqueName("sync_producer"));
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        String topic = uniqueName("SyncMaster");
        awaitSendStatus(producer, topic, SendStatus.SEND_OK, "the slave connected");

        List<SendResult> acknowledged = new ArrayList<>();
        for (Message message : series(topic, "acknowledged", TAG, ACKNOWLEDGED_COUNT)) {
            acknowledged.add(producer.send(message));
        }
        long masterEnd = CommitLogOffsets.maxOffset(admin, pair.master().address());
        long slaveEnd = CommitLogOffsets.maxOffset(admin, pair.slave().address());

        assertEquals(List.of(), acknowledged.stream().filter(result -> result.getSendStatus() != SendStatus.SEND_OK)
            .toList(), "sends not answered SEND_OK with the slave connected");
        assertEquals(masterEnd, slaveEnd, "CommitLog ends of master and slave right after the last SEND_OK");

        pair.slave().stop();
        SendResult unreplicated = awaitSendStatus(producer, topic, SendStatus.SLAVE_NOT_AVAILABLE, "the slave gone");
        TopicReader reader = new TopicReader(clients.pullConsumer(uniqueName("sync_reader")));
        Await.until("the SLAVE_NOT_AVAILABLE message " + unreplicated + " readable on the master", READ_TIMEOUT,
            () -> copiesOf(reader.readAll(topic), unreplicated) > 0);
        assertEquals(1, copiesOf(reader.readAll(topic), unreplicated), "copies of " + unreplicated);
    }

    private static long copiesOf(List<MessageExt> stored, SendResult sent) {
        return stored.stream().filter(message -> message.getMsgId().equals(sent.getMsgId())).count();
    }

    /**
     * Sends probe messages until one is answered {@code status} (the master notices a slave connecting or leaving
     * on its own schedule) and returns that result. Other answers on the way are expected and ignored.
     */
    private static SendResult awaitSendStatus(DefaultMQProducer producer, String topic, SendStatus status,
                                              String because) {
        SendResult[] last = new SendResult[1];
        try {
            Await.until("a send answered " + status + " (" + because + ")", SLAVE_TIMEOUT, () -> {
                last[0] = producer.send(new Message(topic, Topics.CREATE_TAG,
                    ("probe-" + status).getBytes(StandardCharsets.UTF_8)));
                return last[0].getSendStatus() == status;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last answer: " + last[0], e);
        }
        return last[0];
    }
}
