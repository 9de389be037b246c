package io.vrmq.compatgrpc;

import io.vrmq.compatgrpc.support.AdminApi;
import io.vrmq.compatgrpc.support.Await;
import io.vrmq.compatgrpc.support.Sdk;
import io.vrmq.compatgrpc.support.VrmqCluster;
import org.apache.rocketmq.client.apis.ClientException;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.RecallReceipt;
import org.apache.rocketmq.client.apis.producer.SendReceipt;
import org.apache.rocketmq.client.apis.producer.Transaction;
import org.apache.rocketmq.client.apis.producer.TransactionResolution;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official RocketMQ 5 Java SDK 5.2.0 against our broker's gRPC endpoint, with no proxy: producers of every
 * message type (and the recall of a delayed one), the simple consumer (ack, invisible time, change of invisible time) and the push consumer (retries,
 * then the dead-letter queue). One NameServer and broker for the class; each test has its own topic and group.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcSdkIT {
    private static final Duration INVISIBLE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long SLOW_CONSUMPTION_MS = 7_000;
    private static final String BROKER_NAME = "grpc-broker";

    @RegisterExtension
    static final VrmqCluster cluster = new VrmqCluster();
    private static Sdk sdk;
    private static AdminApi admin;

    @BeforeAll
    static void startCluster(@TempDir Path dir) {
        cluster.start(dir, BROKER_NAME, "\"recallMessageEnable\": true");
        sdk = new Sdk(cluster);
        admin = new AdminApi(cluster.adminUrl());
    }

    @Test
    void normalMessagesKeepTagKeysPropertiesAndBody() throws Exception {
        admin.createTopic("GrpcNormal", "NORMAL");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcNormalGroup", "GrpcNormal");
        Producer producer = sdk.producer("GrpcNormal");
        String unicode = "héllo wörld ✓ 你好 🚀";
        SendReceipt receipt = producer.send(sdk.message("GrpcNormal").setTag("TagA").setKeys("k1", "k2")
            .addProperty("color", "blue").setBody(unicode.getBytes(StandardCharsets.UTF_8)).build());
        List<MessageView> received = Sdk.receiveAndAck(consumer, 1, 5, INVISIBLE);
        assertEquals(1, received.size(), "received " + received);
        MessageView message = received.get(0);
        assertEquals(receipt.getMessageId(), message.getMessageId());
        assertEquals(unicode, Sdk.text(message.getBody()));
        assertEquals("TagA", message.getTag().orElse(null));
        assertEquals(Set.of("k1", "k2"), Set.copyOf(message.getKeys()));
        assertEquals("blue", message.getProperties().get("color"));
        assertEquals(1, message.getDeliveryAttempt());
        assertEquals(List.of(), consumer.receive(16, INVISIBLE), "acked: nothing comes back");
    }

    /** The broker's default tls.server.mode is permissive: TLS (the SDK's default) on the same port as plain. */
    @Test
    void theSdksDefaultTlsSendsAndReceivesOnTheSamePort() throws Exception {
        admin.createTopic("GrpcTls", "NORMAL");
        Sdk tls = new Sdk(cluster, true, null);
        SimpleConsumer consumer = tls.simpleConsumer("GrpcTlsGroup", "GrpcTls");
        SendReceipt receipt = tls.producer("GrpcTls").send(tls.message("GrpcTls")
            .setBody("over TLS".getBytes(StandardCharsets.UTF_8)).build());
        List<MessageView> received = Sdk.receiveAndAck(consumer, 1, 5, INVISIBLE);
        assertEquals(List.of(receipt.getMessageId()), received.stream().map(MessageView::getMessageId).toList());
        assertEquals("over TLS", Sdk.text(received.get(0).getBody()));
    }

    @Test
    void aTagFilterKeepsOtherTagsAway() throws Exception {
        admin.createTopic("GrpcTags", "NORMAL");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcTagsGroup", "GrpcTags", "TagA || TagC");
        Producer producer = sdk.producer("GrpcTags");
        for (String tag : List.of("TagB", "TagA", "TagB", "TagC")) {
            producer.send(sdk.message("GrpcTags").setTag(tag).setBody(tag.getBytes(StandardCharsets.UTF_8)).build());
        }
        List<MessageView> received = Sdk.receiveAndAck(consumer, 2, 5, INVISIBLE);
        assertEquals(List.of("TagA", "TagC"), received.stream().map(m -> m.getTag().orElse("")).sorted().toList());
    }

    @Test
    void asyncSendsAndOneMebibyteBody() throws Exception {
        admin.createTopic("GrpcAsync", "NORMAL");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcAsyncGroup", "GrpcAsync");
        Producer producer = sdk.producer("GrpcAsync");
        byte[] large = new byte[1024 * 1024];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31 + 7);
        }
        List<CompletableFuture<SendReceipt>> sends = new ArrayList<>();
        sends.add(producer.sendAsync(sdk.message("GrpcAsync").setTag("large").setBody(large).build()));
        for (int i = 0; i < 5; i++) {
            sends.add(producer.sendAsync(sdk.message("GrpcAsync").setTag("small")
                .setBody(("async " + i).getBytes(StandardCharsets.UTF_8)).build()));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        List<MessageView> received = Sdk.receiveAndAck(consumer, 6, 10, INVISIBLE);
        assertEquals(6, received.size(), "received " + received);
        MessageView largeOne = received.stream().filter(m -> m.getTag().orElse("").equals("large")).findFirst()
            .orElseThrow();
        assertArrayEquals(large, Sdk.bytes(largeOne.getBody()));
    }

    @Test
    void fifoMessagesOfOneGroupArriveInOrder() throws Exception {
        admin.createTopic("GrpcFifo", "FIFO");
        admin.createGroup("GrpcFifoGroup", 16, true);
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcFifoGroup", "GrpcFifo");
        Producer producer = sdk.producer("GrpcFifo");
        for (int i = 0; i < 8; i++) {
            producer.send(sdk.message("GrpcFifo").setMessageGroup("order-1")
                .setBody(("step " + i).getBytes(StandardCharsets.UTF_8)).build());
        }
        List<MessageView> received = Sdk.receiveAndAck(consumer, 8, 20, INVISIBLE);
        List<String> bodies = received.stream().map(m -> Sdk.text(m.getBody())).toList();
        assertEquals(List.of("step 0", "step 1", "step 2", "step 3", "step 4", "step 5", "step 6", "step 7"),
            bodies);
        assertEquals("order-1", received.get(0).getMessageGroup().orElse(null));
    }

    @Test
    void delayedMessageArrivesAtItsDeliveryTime() throws Exception {
        admin.createTopic("GrpcDelay", "DELAY");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcDelayGroup", "GrpcDelay");
        Producer producer = sdk.producer("GrpcDelay");
        long deliverAt = System.currentTimeMillis() + 3_000;
        producer.send(sdk.message("GrpcDelay").setDeliveryTimestamp(deliverAt)
            .setBody("later".getBytes(StandardCharsets.UTF_8)).build());
        List<MessageView> received = Sdk.receiveAndAck(consumer, 1, 6, INVISIBLE);
        assertEquals(1, received.size(), "received " + received);
        assertTrue(System.currentTimeMillis() >= deliverAt, "not before its delivery time");
        assertEquals(deliverAt, received.get(0).getDeliveryTimestamp().orElse(0L));
    }

    /**
     * Two delayed messages for the same second; the first recalled with its receipt's handle: only the second is
     * received, and nothing comes after it (the first would have been stored before it, in the same delivery step).
     */
    @Test
    void aRecalledDelayedMessageIsNeverReceivedWhileItsSiblingIs() throws Exception {
        admin.createTopic("GrpcRecall", "DELAY");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcRecallGroup", "GrpcRecall");
        Producer producer = sdk.producer("GrpcRecall");
        long deliverAt = System.currentTimeMillis() + 3_000;
        SendReceipt recalled = producer.send(sdk.message("GrpcRecall").setDeliveryTimestamp(deliverAt)
            .setBody("recalled".getBytes(StandardCharsets.UTF_8)).build());
        producer.send(sdk.message("GrpcRecall").setDeliveryTimestamp(deliverAt)
            .setBody("kept".getBytes(StandardCharsets.UTF_8)).build());
        assertFalse(recalled.getRecallHandle().isEmpty(), "a delayed message's receipt has a recall handle");

        RecallReceipt receipt = producer.recallMessage("GrpcRecall", recalled.getRecallHandle());

        assertEquals(recalled.getMessageId().toString(), receipt.getMessageId().toString());
        List<MessageView> received = Sdk.receiveAndAck(consumer, 1, 6, INVISIBLE);
        assertEquals(List.of("kept"), received.stream().map(m -> Sdk.text(m.getBody())).toList());
        assertEquals(List.of(), consumer.receive(16, INVISIBLE), "the recalled message never comes");
    }

    /**
     * A handle of another topic is refused as the proxy refuses it (INTERNAL_SERVER_ERROR with the broker's remark),
     * a recall on a topic that takes no delay messages with MESSAGE_PROPERTY_CONFLICT_WITH_TYPE.
     */
    @Test
    void aRecallWithABadHandleIsRefusedWithTheProxysCodes() throws Exception {
        admin.createTopic("GrpcRecallBad", "DELAY");
        admin.createTopic("GrpcRecallNormal", "NORMAL");
        Producer producer = sdk.producer("GrpcRecallBad");
        String otherTopics = recallHandle("GrpcRecallOther", System.currentTimeMillis() + 60_000);

        ClientException wrongTopic = assertThrows(ClientException.class,
            () -> producer.recallMessage("GrpcRecallBad", otherTopics));
        ClientException notDelay = assertThrows(ClientException.class,
            () -> producer.recallMessage("GrpcRecallNormal", recallHandle("GrpcRecallNormal",
                System.currentTimeMillis() + 60_000)));

        assertTrue(wrongTopic.getMessage().contains("response-code=50001"), wrongTopic.getMessage());
        assertTrue(wrongTopic.getMessage().endsWith("recall failed, topic not match"), wrongTopic.getMessage());
        assertTrue(notDelay.getMessage().contains("response-code=40014"), notDelay.getMessage());
    }

    /** RocketMQ's v1 recall handle text, built by hand (the SDK has no builder). */
    private static String recallHandle(String topic, long timestampMs) {
        String raw = String.join(" ", "v1", topic, BROKER_NAME, Long.toString(timestampMs), "0123456789ABCDEF");
        return Base64.getUrlEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void transactionsCommitRollbackAndAnswerChecks() throws Exception {
        admin.createTopic("GrpcTx", "TRANSACTION");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcTxGroup", "GrpcTx");
        Set<String> checked = ConcurrentHashMap.newKeySet();
        Producer producer = sdk.transactionalProducer(view -> {
            checked.add(Sdk.text(view.getBody()));
            return TransactionResolution.COMMIT;
        }, "GrpcTx");
        Transaction committed = producer.beginTransaction();
        producer.send(sdk.message("GrpcTx").setBody("committed".getBytes(StandardCharsets.UTF_8)).build(),
            committed);
        committed.commit();
        Transaction rolledBack = producer.beginTransaction();
        producer.send(sdk.message("GrpcTx").setBody("rolled back".getBytes(StandardCharsets.UTF_8)).build(),
            rolledBack);
        rolledBack.rollback();
        Transaction left = producer.beginTransaction();
        producer.send(sdk.message("GrpcTx").setBody("checked".getBytes(StandardCharsets.UTF_8)).build(), left);
        // Neither committed nor rolled back: the broker asks the producer, whose checker commits.
        List<String> bodies = new ArrayList<>();
        Await.until("the committed and the checked message arrive", WAIT, () -> {
            Sdk.receiveAndAck(consumer, 1, 1, INVISIBLE).forEach(m -> bodies.add(Sdk.text(m.getBody())));
            return bodies.size() >= 2;
        });
        assertEquals(Set.of("committed", "checked"), Set.copyOf(bodies));
        assertTrue(checked.contains("checked"), "the checker was asked: " + checked);
        assertFalse(checked.contains("committed"), "a committed transaction is not checked");
        assertEquals(List.of(), consumer.receive(16, INVISIBLE), "the rolled back message never comes");
    }

    @Test
    void unackedMessageComesBackAfterItsInvisibleTime() throws Exception {
        admin.createTopic("GrpcRedeliver", "NORMAL");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcRedeliverGroup", "GrpcRedeliver");
        Producer producer = sdk.producer("GrpcRedeliver");
        SendReceipt receipt = producer.send(sdk.message("GrpcRedeliver")
            .setBody("again".getBytes(StandardCharsets.UTF_8)).build());
        List<MessageView> first = receiveSome(consumer, Duration.ofSeconds(2));
        assertEquals(1, first.size());
        assertEquals(1, first.get(0).getDeliveryAttempt());
        List<MessageView> second = receiveSome(consumer, INVISIBLE);
        assertEquals(1, second.size(), "not acked: delivered again");
        assertEquals(receipt.getMessageId(), second.get(0).getMessageId());
        assertEquals(2, second.get(0).getDeliveryAttempt());
        consumer.ack(second.get(0));
    }

    @Test
    void changedInvisibleDurationBringsTheMessageBackSooner() throws Exception {
        admin.createTopic("GrpcChange", "NORMAL");
        SimpleConsumer consumer = sdk.simpleConsumer("GrpcChangeGroup", "GrpcChange");
        Producer producer = sdk.producer("GrpcChange");
        producer.send(sdk.message("GrpcChange").setBody("soon".getBytes(StandardCharsets.UTF_8)).build());
        List<MessageView> first = receiveSome(consumer, Duration.ofMinutes(10));
        assertEquals(1, first.size());
        consumer.changeInvisibleDuration(first.get(0), Duration.ofSeconds(1));
        List<MessageView> second = receiveSome(consumer, INVISIBLE);
        assertEquals(1, second.size(), "back after the changed invisible time, not after 10 minutes");
        assertEquals("soon", Sdk.text(second.get(0).getBody()));
        assertEquals(2, second.get(0).getDeliveryAttempt());
        consumer.ack(second.get(0));
    }

    @Test
    void pushConsumerRetriesAFailingMessageThenDeadLetters() throws Exception {
        admin.createTopic("GrpcPushRetry", "NORMAL");
        admin.createGroup("GrpcPushRetryGroup", 2, false);
        Map<Integer, Boolean> attempts = new ConcurrentHashMap<>();
        AtomicInteger deliveries = new AtomicInteger();
        sdk.pushConsumer("GrpcPushRetryGroup", "GrpcPushRetry", view -> {
            deliveries.incrementAndGet();
            attempts.put(view.getDeliveryAttempt(), true);
            return ConsumeResult.FAILURE;
        });
        Producer producer = sdk.producer("GrpcPushRetry");
        producer.send(sdk.message("GrpcPushRetry").setBody("poison".getBytes(StandardCharsets.UTF_8)).build());
        Await.until("the message reaches the group's dead-letter queue", WAIT,
            () -> admin.totalMessages("%DLQ%GrpcPushRetryGroup") == 1);
        assertEquals(Set.of(1, 2, 3), attempts.keySet(), "retryMaxTimes 2: three deliveries, then the DLQ");
        assertEquals(3, deliveries.get());
    }

    @Test
    void fifoPushConsumerForwardsAFailingMessageToTheDeadLetterQueue() throws Exception {
        admin.createTopic("GrpcFifoPush", "FIFO");
        admin.createGroup("GrpcFifoPushGroup", 1, true);
        List<String> consumed = new java.util.concurrent.CopyOnWriteArrayList<>();
        sdk.pushConsumer("GrpcFifoPushGroup", "GrpcFifoPush", view -> {
            String body = Sdk.text(view.getBody());
            consumed.add(body + "#" + view.getDeliveryAttempt());
            return body.equals("poison") ? ConsumeResult.FAILURE : ConsumeResult.SUCCESS;
        });
        Producer producer = sdk.producer("GrpcFifoPush");
        producer.send(sdk.message("GrpcFifoPush").setMessageGroup("g").setBody("poison".getBytes(
            StandardCharsets.UTF_8)).build());
        producer.send(sdk.message("GrpcFifoPush").setMessageGroup("g").setBody("next".getBytes(
            StandardCharsets.UTF_8)).build());
        // retryMaxTimes 1: two attempts in the client, then ForwardMessageToDeadLetterQueue; the group goes on.
        Await.until("the poison message is in the DLQ and the next one consumed", WAIT,
            () -> admin.totalMessages("%DLQ%GrpcFifoPushGroup") == 1 && consumed.contains("next#1"));
        assertEquals(List.of("poison#1", "poison#2", "next#1"), consumed, "in order, the failing one first");
    }

    @Test
    void aSlowPushListenerKeepsItsMessageInvisible() throws Exception {
        admin.createTopic("GrpcRenew", "NORMAL");
        AtomicInteger deliveries = new AtomicInteger();
        CompletableFuture<Integer> deliveriesWhenDone = new CompletableFuture<>();
        sdk.pushConsumer("GrpcRenewGroup", "GrpcRenew", view -> {
            int delivery = deliveries.incrementAndGet();
            if (delivery == 1) {
                // Consuming takes longer than twice the invisible time (3 s in this broker's configuration): without
                // renewals the message would come back meanwhile, to another consumption thread.
                try {
                    Thread.sleep(SLOW_CONSUMPTION_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                deliveriesWhenDone.complete(deliveries.get());
            }
            return ConsumeResult.SUCCESS;
        });
        Producer producer = sdk.producer("GrpcRenew");
        producer.send(sdk.message("GrpcRenew").setBody("slow".getBytes(StandardCharsets.UTF_8)).build());
        assertEquals(1, deliveriesWhenDone.get(60, TimeUnit.SECONDS), "renewed while consumed: delivered once");
    }

    /** Receives until something arrives (at most a few long polls); nothing is acked. */
    private static List<MessageView> receiveSome(SimpleConsumer consumer, Duration invisible) throws Exception {
        for (int round = 0; round < 6; round++) {
            List<MessageView> received = consumer.receive(16, invisible);
            if (!received.isEmpty()) {
                return received;
            }
        }
        return List.of();
    }
}
