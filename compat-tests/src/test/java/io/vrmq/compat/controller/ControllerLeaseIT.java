package io.vrmq.compat.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.controller.support.ControllerModeKeys;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import io.vrmq.compat.support.VrmqController;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller lease (ours; Apache RocketMQ 5.5.0 has none): a master without allAckInSyncStateSet that cannot hear
 * the controller confirm it for controllerLeaseMs refuses sends with SERVICE_NOT_AVAILABLE, because the controller may
 * have elected another master that lacks what it would acknowledge; once the controller is back and confirms it, it
 * takes sends again. A master with allAckInSyncStateSet needs no lease (whatever it acknowledges is on every in-sync
 * replica) and keeps taking sends. The controller is stopped outright, the simplest way to cut a master off.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ControllerLeaseIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(40);
    private static final String LEASED = "broker-leased";
    private static final String ALL_ACK = "broker-all-ack";

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    @Test
    void aMasterCutOffFromTheControllerStopsTakingSendsUntilItIsConfirmedAgain() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        VrmqController controller = resources.controller(dir.resolve("controller"), Map.of());
        VrmqBroker leased = brokers.start(BrokerSettings.defaults(LEASED, nameServer.address(), dir.resolve("leased")),
            ControllerModeKeys.masterAcks(controller.address()));
        VrmqBroker allAck = brokers.start(BrokerSettings.defaults(ALL_ACK, nameServer.address(),
            dir.resolve("all-ack")), ControllerModeKeys.allAck(controller.address()));
        BrokerClients clients = new BrokerClients(resources, nameServer.address());
        DefaultMQAdminExt admin = clients.admin();
        DefaultMQProducer producer = clients.producer("lease_producer");
        MessageQueue leasedQueue = queueOf(admin, leased, "LeaseTopic");
        MessageQueue allAckQueue = queueOf(admin, allAck, "AllAckTopic");
        Await.until("both masters take sends", TIMEOUT, () -> isSendOk(producer, leasedQueue)
            && isSendOk(producer, allAckQueue));

        controller.kill();
        Await.until(LEASED + " refuses sends once its lease ran out", TIMEOUT,
            () -> refusal(producer, leasedQueue) == ResponseCode.SERVICE_NOT_AVAILABLE);
        assertEquals(SendStatus.SEND_OK, send(producer, allAckQueue), ALL_ACK + " needs no lease");

        controller.start();
        Await.until(LEASED + " takes sends once the controller confirms it again", TIMEOUT,
            () -> isSendOk(producer, leasedQueue));
    }

    /** Creates {@code topic} on {@code master} once the controller made it master; its queue 0. */
    private static MessageQueue queueOf(DefaultMQAdminExt admin, VrmqBroker master, String topic) {
        Await.until(master + " takes a topic as master", TIMEOUT, () -> {
            admin.createAndUpdateTopicConfig(master.address(), new TopicConfig(topic, 1, 1));
            return true;
        });
        return new MessageQueue(topic, master.brokerName(), 0);
    }

    private static SendStatus send(DefaultMQProducer producer, MessageQueue queue) throws Exception {
        return producer.send(new Message(queue.getTopic(), "lease".getBytes(StandardCharsets.UTF_8)), queue)
            .getSendStatus();
    }

    private static boolean isSendOk(DefaultMQProducer producer, MessageQueue queue) throws Exception {
        return send(producer, queue) == SendStatus.SEND_OK;
    }

    /** The broker's response code when it refuses a send; -1 when the send went through. */
    private static int refusal(DefaultMQProducer producer, MessageQueue queue) throws Exception {
        try {
            send(producer, queue);
            return -1;
        } catch (MQBrokerException e) {
            return e.getResponseCode();
        }
    }
}
