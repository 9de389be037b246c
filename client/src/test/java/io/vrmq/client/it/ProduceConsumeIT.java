package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.ConsumeOrderlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.MessageListenerConcurrently;
import io.vrmq.client.MessageListenerOrderly;
import io.vrmq.client.MessageModel;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.MessageQueueSelector;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.SendResult;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import io.vrmq.client.it.support.Attempts;
import io.vrmq.client.ConsumerOptions;
import io.vrmq.client.ProducerOptions;
import io.vrmq.client.consumer.ConsumerBrokerApi;
import io.vrmq.client.consumer.SendBackService;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.message.MessageIdGenerator;
import io.vrmq.client.producer.BrokerFaultTable;
import io.vrmq.client.producer.MessageSender;
import io.vrmq.client.producer.SendPreparation;
import io.vrmq.client.message.StoredRecordDecoder;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our producer and push consumer against our NameServer and broker (child JVMs shared by the tests here). */
@ExtendWith(VertxExtension.class)
class ProduceConsumeIT {
    private static TestCluster cluster;

    @BeforeAll
    static void startCluster(@TempDir Path dir) {
        cluster = TestCluster.start(dir);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** TagB is stored first in the same queue, so had the filter let it through it would have come first. */
    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aTagSubscriptionGetsItsTagsWithKeysPropertiesAndBodiesIntact(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-tags"));
        byte[] largeBody = "compress me ".repeat(1_000).getBytes(StandardCharsets.UTF_8);
        Message tagged = Message.of("TopicTags", "TagA", "small".getBytes(StandardCharsets.UTF_8))
            .withKeys("order-1", "user-7").withProperty("color", "red");
        Message large = Message.of("TopicTags", "TagA", largeBody);
        Message other = Message.of("TopicTags", "TagB", "not for us".getBytes(StandardCharsets.UTF_8));
        Received received = new Received();
        List<SendResult> sent = new ArrayList<>();

        producer.start()
            .compose(started -> producer.send(other))
            .compose(first -> {
                MessageQueue queue = first.messageQueue();
                return producer.send(tagged, queue).onSuccess(sent::add)
                    .compose(result -> producer.send(large, queue)).onSuccess(sent::add);
            })
            .compose(stored -> startConsumer(vertx, "CG-tags", "TopicTags", "TagA", concurrent(received)))
            .compose(consumer -> received.untilDistinct(2).compose(all -> consumer.close()))
            .compose(closed -> producer.writeQueues("TopicTags"))
            .eventually(producer::close)
            .onComplete(test.succeeding(queues -> test.verify(() -> {
                assertEquals(4, queues.size(), "a topic created on first send gets TBW102's queues capped at 4");
                List<ReceivedMessage> deliveries = received.deliveries();
                assertEquals(2, deliveries.size(), "TagB must be filtered out: " + deliveries);
                ReceivedMessage first = deliveries.get(0);
                assertEquals("TagA", first.tags());
                assertEquals("order-1 user-7", first.keys());
                assertEquals("red", first.property("color"));
                assertEquals(sent.get(0).msgId(), first.msgId());
                assertEquals(MessageIdGenerator.forThisProcess().next().length(), first.msgId().length(),
                    "32 hex characters on an IPv4 host, 56 on an IPv6 one");
                assertArrayEquals("small".getBytes(StandardCharsets.UTF_8), first.body());
                assertTrue(first.bornHost().getAddress().isLoopbackAddress(), "born at the producer's address: "
                    + first.bornHost());
                assertEquals(first.bornHost(), deliveries.get(1).bornHost(), "both sent on one connection");
                assertTrue(first.bornHost().getPort() > 0, "the producer's port: " + first.bornHost());
                assertArrayEquals(largeBody, deliveries.get(1).body(), "a compressed body comes back inflated");
                assertEquals(sent.get(1).msgId(), deliveries.get(1).msgId());
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 40, timeUnit = TimeUnit.SECONDS)
    void theOrderlyListenerSeesEachKeysMessagesInSendOrder(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-order"));
        List<String> keys = List.of("order-a", "order-b", "order-c", "order-d");
        int perKey = 25;
        Received received = new Received();
        Future<Void> sends = producer.start();
        for (int seq = 0; seq < perKey; seq++) {
            for (String key : keys) {
                Message message = Message.of("TopicOrder", "T", (key + ":" + seq).getBytes(StandardCharsets.UTF_8))
                    .withKeys(key);
                sends = sends.compose(previous -> producer.send(message, MessageQueueSelector.byHash(), key))
                    .mapEmpty();
            }
        }
        MessageListenerOrderly listener = (messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeOrderlyStatus.SUCCESS);
        };
        sends.compose(stored -> {
                VrmqPushConsumer consumer = new VrmqPushConsumer(vertx,
                    TestClients.consumer(cluster.namesrvAddr(), "CG-order"));
                consumer.subscribe("TopicOrder", "*").registerOrderlyListener(listener);
                return consumer.start().map(consumer);
            })
            .compose(consumer -> received.untilDistinct(keys.size() * perKey).compose(all -> consumer.close()))
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                Map<String, List<Integer>> sequences = new HashMap<>();
                for (ReceivedMessage message : received.deliveries()) {
                    String[] parts = new String(message.body(), StandardCharsets.UTF_8).split(":");
                    sequences.computeIfAbsent(parts[0], key -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
                }
                List<Integer> expected = IntStream.range(0, perKey).boxed().toList();
                for (String key : keys) {
                    assertEquals(expected, sequences.get(key), "order of " + key);
                }
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 40, timeUnit = TimeUnit.SECONDS)
    void aFailedConsumeComesBackWithReconsumeTimesOne(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-retry"));
        Received received = new Received();
        MessageListenerConcurrently listener = (messages, queue) -> {
            received.add(messages);
            boolean isFirstAttempt = messages.get(0).reconsumeTimes() == 0;
            return Future.succeededFuture(isFirstAttempt ? ConsumeConcurrentlyStatus.RECONSUME_LATER
                : ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };
        Message message = Message.of("TopicRetry", "TagR", "try again".getBytes(StandardCharsets.UTF_8))
            .withKeys("retry-key");
        List<SendResult> sent = new ArrayList<>();

        producer.start()
            .compose(started -> producer.send(message)).onSuccess(sent::add)
            .compose(stored -> startConsumer(vertx, "CG-retry", "TopicRetry", "TagR", listener))
            .compose(consumer -> received.until(all -> all.deliveryCount() >= 2).compose(two -> consumer.close()))
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                ReceivedMessage first = received.deliveries().get(0);
                ReceivedMessage again = received.deliveries().get(1);
                assertEquals(0, first.reconsumeTimes());
                assertEquals(1, again.reconsumeTimes());
                assertEquals("TopicRetry", again.topic(), "a retry shows its original topic");
                assertEquals(sent.get(0).msgId(), again.msgId());
                assertEquals("retry-key", again.keys());
                assertArrayEquals(message.body(), again.body());
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aDelayedMessageIsNotDeliveredBeforeItsDelay(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-delay"));
        int delayLevel = 2;
        long delayMs = 2_000;    // level 2 of TestCluster.DELAY_LEVELS
        Received received = new Received();
        Map<String, Long> receivedAtMs = new HashMap<>();
        MessageListenerConcurrently listener = (messages, queue) -> {
            messages.forEach(message -> receivedAtMs.put(message.msgId(), System.currentTimeMillis()));
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };
        long[] sentAtMs = new long[1];
        List<SendResult> sent = new ArrayList<>();

        producer.start()
            .compose(started -> producer.send(Message.of("TopicDelay", "warm-up".getBytes(StandardCharsets.UTF_8))))
            .compose(created -> startConsumer(vertx, "CG-delay", "TopicDelay", "TagD", listener))
            .compose(consumer -> {
                sentAtMs[0] = System.currentTimeMillis();
                return producer.send(Message.of("TopicDelay", "TagD", "later".getBytes(StandardCharsets.UTF_8))
                        .withDelayLevel(delayLevel)).onSuccess(sent::add)
                    .compose(stored -> received.untilDistinct(1))
                    .compose(arrived -> consumer.close());
            })
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                long waitedMs = receivedAtMs.get(sent.get(0).msgId()) - sentAtMs[0];
                assertTrue(waitedMs >= delayMs, "delivered after " + waitedMs + " ms, delay is " + delayMs + " ms");
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aBatchLandsInOneQueueWithConsecutiveOffsets(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-batch"));
        List<Message> batch = IntStream.range(0, 10)
            .mapToObj(index -> Message.of("TopicBatch", "TagB", ("item-" + index).getBytes(StandardCharsets.UTF_8))
                .withKeys("batch-" + index))
            .toList();
        Received received = new Received();
        List<SendResult> sent = new ArrayList<>();

        producer.start()
            .compose(started -> producer.sendBatch(batch)).onSuccess(sent::add)
            .compose(stored -> startConsumer(vertx, "CG-batch", "TopicBatch", "*", concurrent(received)))
            .compose(consumer -> received.untilDistinct(batch.size()).compose(all -> consumer.close()))
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                List<String> sentIds = Arrays.asList(sent.get(0).msgId().split(","));
                assertEquals(batch.size(), sentIds.size());
                List<ReceivedMessage> deliveries = new ArrayList<>(received.deliveries());
                deliveries.sort((a, b) -> Long.compare(a.queueOffset(), b.queueOffset()));
                long firstOffset = sent.get(0).queueOffset();
                for (int index = 0; index < batch.size(); index++) {
                    ReceivedMessage message = deliveries.get(index);
                    assertEquals(firstOffset + index, message.queueOffset());
                    assertEquals(sent.get(0).messageQueue().queueId(), message.queueId());
                    assertEquals(sentIds.get(index), message.msgId());
                    assertEquals("batch-" + index, message.keys());
                }
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aBroadcastingConsumerKeepsItsOffsetsInALocalFile(Vertx vertx, VertxTestContext test,
                                                         @TempDir Path offsetDir) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-bcast"));
        Received received = new Received();
        Supplier<VrmqPushConsumer> consumer = () -> new VrmqPushConsumer(vertx,
            TestClients.consumer(cluster.namesrvAddr(), "CG-bcast").setMessageModel(MessageModel.BROADCASTING)
                .setOffsetStoreDir(offsetDir));

        producer.start()
            .compose(started -> producer.send(Message.of("TopicBcast", "one".getBytes(StandardCharsets.UTF_8))))
            .compose(created -> {
                VrmqPushConsumer broadcast = consumer.get();
                broadcast.subscribe("TopicBcast", "*").registerListener(concurrent(received));
                return broadcast.start().map(broadcast);
            })
            .compose(broadcast -> producer.send(Message.of("TopicBcast", "two".getBytes(StandardCharsets.UTF_8)))
                .compose(stored -> received.untilDistinct(1))
                .compose(arrived -> broadcast.close()))
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                try (var files = Files.walk(offsetDir)) {
                    Path file = files.filter(path -> path.endsWith("offsets.json")).findFirst().orElseThrow();
                    String table = Files.readString(file);
                    assertTrue(table.contains("TopicBcast@broker-a@"), table);
                }
                test.completeNow();
            })));
    }

    @Test
    void sendSyncRefusesToBlockAnEventLoop(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-sync"));
        Promise<Throwable> refused = Promise.promise();
        vertx.runOnContext(ignored -> {
            try {
                producer.sendSync(Message.of("TopicSync", new byte[] {1}));
                refused.fail("sendSync ran on an event loop");
            } catch (IllegalStateException e) {
                refused.complete(e);
            } catch (InterruptedException e) {
                refused.fail(e);
            }
        });
        refused.future().eventually(producer::close).onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void sendSyncReturnsTheResultOnACallerThread(Vertx vertx) throws InterruptedException {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-sync2"));
        try {
            SendResult result = producer.sendSync(Message.of("TopicSync", new byte[] {1}));
            assertEquals(32, result.offsetMsgId().length());
            assertThrows(io.vrmq.client.ClientException.class,
                () -> producer.sendSync(Message.of("bad topic!", new byte[] {1})));
        } finally {
            producer.close();
        }
    }

    /**
     * When CONSUMER_SEND_MSG_BACK fails (here: the broker has no message at the given commit-log offset), the
     * consumer sends the copy to %RETRY%group itself; it comes back to the group with reconsumeTimes 1.
     */
    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aRefusedSendBackIsResentToTheRetryTopicByTheClient(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-fallback"));
        ConsumerOptions options = TestClients.consumer(cluster.namesrvAddr(), "CG-fallback");
        ClientRuntime runtime = new ClientRuntime(vertx, options);
        ConsumerBrokerApi broker = new ConsumerBrokerApi(runtime, "CG-fallback", 1 << 20);
        ProducerOptions inner = new ProducerOptions().setNamesrvAddr(cluster.namesrvAddr());
        SendBackService sendBack = new SendBackService(broker, new SendPreparation(inner,
            MessageIdGenerator.forThisProcess()), new MessageSender(runtime, inner,
            new BrokerFaultTable(System::currentTimeMillis)), "CG-fallback", 16);
        Received received = new Received();
        MessageListenerConcurrently listener = (messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };

        producer.start()
            .compose(started -> producer.send(Message.of("TopicFallback", "TagF",
                "original".getBytes(StandardCharsets.UTF_8)).withKeys("fallback")))
            .compose(stored -> startConsumer(vertx, "CG-fallback", "TopicFallback", "TagF", listener))
            .compose(consumer -> received.untilDistinct(1)
                .compose(first -> runtime.onContext(() -> runtime.routes().refresh("TopicFallback")
                    .compose(routed -> sendBack.sendBack(withBogusOffset(received.deliveries().get(0)), 0))))
                .compose(resent -> received.until(all -> all.deliveryCount() >= 2))
                .eventually(consumer::close))
            .eventually(() -> runtime.onContext(runtime::close))
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                ReceivedMessage first = received.deliveries().get(0);
                ReceivedMessage again = received.deliveries().get(1);
                assertEquals(1, again.reconsumeTimes());
                assertEquals("TopicFallback", again.topic());
                assertEquals(first.msgId(), again.msgId(), "the copy keeps the UNIQ_KEY");
                assertEquals("fallback", again.keys());
                test.completeNow();
            })));
    }

    private static ReceivedMessage withBogusOffset(ReceivedMessage message) {
        return new ReceivedMessage(message.topic(), message.queueId(), message.queueOffset(), Long.MAX_VALUE / 2,
            message.flag(), message.sysFlag(), message.body(), message.properties(), message.bornTimestamp(),
            message.bornHost(), message.storeTimestamp(), message.storeHost(), message.reconsumeTimes(),
            message.preparedTransactionOffset(), message.storeSizeBytes(), message.bodyCrc(), message.offsetMsgId(),
            message.brokerName());
    }

    /** QUERY_MESSAGE with _UNIQUE_KEY_QUERY, as mqadmin queryMsgById asks: the broker's index knows our ids. */
    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aMessageIsFoundByItsIdThroughTheBrokersIndex(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-query"));
        RemotingClient admin = new RemotingClient(vertx, RemotingLimits.defaults());
        List<SendResult> sent = new ArrayList<>();

        producer.start()
            .compose(started -> producer.send(Message.of("TopicQuery", "find me".getBytes(StandardCharsets.UTF_8))))
            .onSuccess(sent::add)
            .compose(stored -> Attempts.until(vertx, 20, 200, () -> admin.invoke(cluster.brokerAddr(),
                    RemotingCommand.request(RequestCode.QUERY_MESSAGE, Map.of("topic", "TopicQuery",
                        "key", stored.msgId(), "maxNum", "32", "beginTimestamp", "0",
                        "endTimestamp", Long.toString(Long.MAX_VALUE), "_UNIQUE_KEY_QUERY", "true"), null))
                .compose(response -> response.code() == ResponseCode.SUCCESS ? Future.succeededFuture(response)
                    : Future.failedFuture("query: " + response.remark()))))
            .eventually(admin::close)
            .eventually(producer::close)
            .onComplete(test.succeeding(response -> test.verify(() -> {
                List<ReceivedMessage> found = StoredRecordDecoder.decodeAll(response.body(), 1 << 20);
                assertEquals(sent.get(0).msgId(), found.get(0).msgId());
                assertEquals(sent.get(0).offsetMsgId(), found.get(0).offsetMsgId());
                test.completeNow();
            })));
    }

    private static MessageListenerConcurrently concurrent(Received received) {
        return (messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };
    }

    private static Future<VrmqPushConsumer> startConsumer(Vertx vertx, String group, String topic,
                                                          String expression, MessageListenerConcurrently listener) {
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(), group));
        consumer.subscribe(topic, expression).registerListener(listener);
        return consumer.start().map(consumer);
    }
}
