package io.vrmq.compat.broker.transaction;

import static io.vrmq.compat.broker.support.TestMessages.assertIntact;
import static io.vrmq.compat.broker.support.TestMessages.body;
import static io.vrmq.compat.broker.support.TestMessages.message;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactional messages with the official 5.5.0 TransactionMQProducer and push consumer: a commit is delivered once
 * and intact, a rollback never, an undecided transaction after the broker's check-back heard "commit", and a half
 * message stays invisible while its local transaction runs. The broker checks every second and treats a transaction
 * as open after 2 s, so a check-back takes seconds. One topic and one consumer, subscribed before any send, serve
 * every test (each test has its own bodies).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TransactionalMessageIT {

    private static final Map<String, Object> FAST_CHECKS = Map.of("transactionCheckInterval", 1_000,
        "transactionTimeOut", 2_000);
    /** So the broker knows the producer's connection a second after its first send, not 30 s (the default). */
    private static final int HEARTBEAT_INTERVAL_MS = 1_000;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    /** Longer than transactionTimeOut + transactionCheckInterval: a wrong check or second commit would show by then. */
    private static final long QUIET_MS = 3_500;
    /** How long the held transaction stays open; its immunity keeps the broker from checking it meanwhile. */
    private static final long HOLD_MS = 2_000;
    private static final String IMMUNITY_SECONDS = "30";

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static String topic;
    private static final Received received = new Received();
    private static final ScriptedTransactionListener listener = new ScriptedTransactionListener();
    private static TransactionMQProducer producer;

    @BeforeAll
    static void startBrokerConsumerAndTransactionProducer() throws Exception {
        Path namesrvDir = dir.resolve("namesrv");
        RunningNameServer nameServer = resources.nameServer(namesrvDir, NameServerSettings.defaults(namesrvDir));
        brokers.start(BrokerSettings.defaults("broker-tx", nameServer.address(), dir.resolve("broker")), FAST_CHECKS);
        BrokerClients clients = new BrokerClients(resources, nameServer.address());
        topic = Topics.create(clients.producer(uniqueName("tx_creator")), uniqueName("Tx"));
        MessageListenerConcurrently consume = (messages, context) -> {
            received.add("consumer", messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
        DefaultMQPushConsumer consumer = clients.pushConsumer(uniqueName("tx_consumer"), topic, "TagA", consume,
            c -> { });
        Topics.awaitOwnedQueues(consumer, topic, Topics.AUTO_CREATED_QUEUE_COUNT);
        producer = new TransactionMQProducer(uniqueName("tx_producer"));
        producer.setNamesrvAddr(nameServer.address());
        producer.setInstanceName(OfficialClients.uniqueInstanceName("tx"));
        producer.setHeartbeatBrokerInterval(HEARTBEAT_INTERVAL_MS);
        producer.setTransactionListener(listener);
        producer.start();
        resources.closeClientLater(producer::shutdown);
    }

    @Test
    void aCommittedTransactionIsDeliveredExactlyOnceAndIntact() throws Exception {
        Message sent = transactional("commit", "COMMIT");

        TransactionSendResult result = producer.sendMessageInTransaction(sent, null);

        assertSent(result, LocalTransactionState.COMMIT_MESSAGE);
        received.awaitAll(List.of(body(sent)), DELIVERY_TIMEOUT);
        pause(QUIET_MS);
        assertDeliveredOnceIntact(sent);
        assertNull(listener.checkedAtMs(body(sent)), "the broker checked a committed transaction");
    }

    @Test
    void aRolledBackTransactionIsNeverDelivered() throws Exception {
        Message sent = transactional("rollback", "ROLLBACK");

        TransactionSendResult result = producer.sendMessageInTransaction(sent, null);

        assertSent(result, LocalTransactionState.ROLLBACK_MESSAGE);
        pause(QUIET_MS);
        assertEquals(List.of(), deliveriesOf(sent), "a rolled-back message was delivered");
        assertNull(listener.checkedAtMs(body(sent)), "the broker checked a rolled-back transaction");
    }

    @Test
    void anUndecidedTransactionIsDeliveredAfterTheCheckBackCommitsIt() throws Exception {
        Message sent = transactional("unknown", "UNKNOWN");

        TransactionSendResult result = producer.sendMessageInTransaction(sent, null);

        assertSent(result, LocalTransactionState.UNKNOW);
        Received.Delivery delivery = awaitDelivery(sent);
        Long checkedAtMs = listener.checkedAtMs(body(sent));
        assertNotNull(checkedAtMs, "delivered without a check-back");
        assertTrue(delivery.receivedAtMs() >= checkedAtMs, "delivered before the check-back");
        pause(QUIET_MS);
        assertDeliveredOnceIntact(sent);
    }

    @Test
    void aHalfMessageIsNotDeliveredBeforeItsCommit() throws Exception {
        Message sent = transactional("held", "HOLD");
        sent.putUserProperty(MessageConst.PROPERTY_CHECK_IMMUNITY_TIME_IN_SECONDS, IMMUNITY_SECONDS);

        CompletableFuture<TransactionSendResult> sending = CompletableFuture.supplyAsync(() -> send(sent));
        listener.awaitHeld(body(sent));
        pause(HOLD_MS);
        assertEquals(List.of(), deliveriesOf(sent), "delivered while its local transaction was still open");
        listener.release(body(sent));

        assertSent(sending.get(DELIVERY_TIMEOUT.toSeconds(), TimeUnit.SECONDS), LocalTransactionState.COMMIT_MESSAGE);
        awaitDelivery(sent);
        assertDeliveredOnceIntact(sent);
    }

    private static Message transactional(String label, String outcome) {
        Message message = message(topic, uniqueName(label), "TagA", 0);
        message.putUserProperty(ScriptedTransactionListener.OUTCOME, outcome);
        return message;
    }

    private static TransactionSendResult send(Message message) {
        try {
            return producer.sendMessageInTransaction(message, null);
        } catch (Exception e) {
            throw new CompletionException(e);
        }
    }

    private static void assertSent(TransactionSendResult result, LocalTransactionState expected) {
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        assertEquals(expected, result.getLocalTransactionState(), result.toString());
        assertNotNull(result.getTransactionId(), result.toString());
    }

    private static Received.Delivery awaitDelivery(Message sent) {
        received.awaitAll(List.of(body(sent)), DELIVERY_TIMEOUT);
        return deliveriesOf(sent).get(0);
    }

    private static List<Received.Delivery> deliveriesOf(Message sent) {
        return received.deliveries().stream().filter(delivery -> delivery.body().equals(body(sent))).toList();
    }

    private static void assertDeliveredOnceIntact(Message sent) {
        List<Received.Delivery> deliveries = deliveriesOf(sent);
        assertEquals(1, deliveries.size(), "deliveries of " + body(sent));
        assertIntact(sent, deliveries.get(0).message());
    }

    private static void pause(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }
}
