package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker → client admin requests our push consumer answers, driven through our broker as mqadmin drives them:
 * INVOKE_BROKER_TO_RESET_OFFSET (222, which makes the broker send RESET_CONSUMER_CLIENT_OFFSET 220) and
 * GET_CONSUMER_RUNNING_INFO (307, relayed by the broker to the consumer) and CONSUME_MESSAGE_DIRECTLY (309, which the
 * broker relays with the stored message attached).
 */
@ExtendWith(VertxExtension.class)
class ConsumerAdminIT {
    private static final int MESSAGE_COUNT = 10;
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

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void aForcedResetThroughTheBrokerMakesARunningConsumerConsumeTheTopicAgain(Vertx vertx, VertxTestContext test) {
        String topic = "TopicReset";
        String group = "CG-reset";
        Received received = new Received();
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-reset"));
        RemotingClient admin = new RemotingClient(vertx, RemotingLimits.defaults());
        AtomicReference<VrmqPushConsumer> consumer = new AtomicReference<>();
        RemotingCommand reset = RemotingCommand.request(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, Map.of(
            "topic", topic, "group", group, "timestamp", "0", "isForce", "true"), null);

        cluster.createTopic(vertx, topic, 2)
            .compose(created -> producer.start())
            .compose(started -> sendAll(producer, topic))
            .compose(sent -> startConsumer(vertx, topic, group, received).onSuccess(consumer::set))
            .compose(started -> received.untilDistinct(MESSAGE_COUNT))
            .compose(consumedOnce -> admin.invoke(cluster.brokerAddr(), reset))
            .compose(answer -> answer.code() == ResponseCode.SUCCESS ? Future.succeededFuture()
                : Future.failedFuture("reset refused: " + answer.code() + " " + answer.remark()))
            .compose(resetDone -> received.until(all -> all.deliveryCount() >= 2 * MESSAGE_COUNT))
            .eventually(() -> closeAll(consumer.get(), producer, admin))
            .onComplete(test.succeeding(done -> test.verify(() -> {
                Map<String, Integer> deliveriesById = new HashMap<>();
                for (ReceivedMessage message : received.deliveries()) {
                    deliveriesById.merge(message.msgId(), 1, Integer::sum);
                }
                assertEquals(MESSAGE_COUNT, deliveriesById.size());
                assertTrue(deliveriesById.values().stream().allMatch(count -> count >= 2),
                    "every message is consumed again after the reset to the start: " + deliveriesById);
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void runningInfoRelayedByTheBrokerNamesTheSubscriptionAndTheAssignedQueues(Vertx vertx, VertxTestContext test) {
        String topic = "TopicRunningInfo";
        String group = "CG-running-info";
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-info"));
        RemotingClient admin = new RemotingClient(vertx, RemotingLimits.defaults());
        Received received = new Received();
        AtomicReference<VrmqPushConsumer> consumer = new AtomicReference<>();
        AtomicReference<Set<MessageQueue>> assigned = new AtomicReference<>();

        cluster.createTopic(vertx, topic, 3)
            .compose(created -> producer.start())
            .compose(started -> sendAll(producer, topic))
            .compose(sent -> startConsumer(vertx, topic, group, received).onSuccess(consumer::set))
            .compose(started -> received.untilDistinct(MESSAGE_COUNT))
            .compose(consumed -> consumer.get().assignedQueues().onSuccess(assigned::set))
            .compose(queues -> admin.invoke(cluster.brokerAddr(), RemotingCommand.request(
                RequestCode.GET_CONSUMER_RUNNING_INFO, Map.of("consumerGroup", group,
                    "clientId", consumer.get().clientId(), "jstackEnable", "false"), null)))
            .eventually(() -> closeAll(consumer.get(), producer, admin))
            .onComplete(test.succeeding(answer -> test.verify(() -> {
                assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
                String body = answer.body().toString(StandardCharsets.UTF_8);
                assertTrue(body.contains("\"subString\":\"*\"") && body.contains(
                    "\"topic\":\"" + topic + "\""), "the subscription is listed: " + body);
                assertTrue(body.contains("\"PROP_CONSUME_TYPE\":\"CONSUME_PASSIVELY\""), body);
                assertEquals(3, assigned.get().stream().filter(queue -> queue.topic().equals(topic)).count());
                for (MessageQueue queue : assigned.get()) {
                    String key = String.format("{\"brokerName\":\"%s\",\"queueId\":%d,\"topic\":\"%s\"}:{",
                        queue.brokerName(), queue.queueId(), queue.topic());
                    assertTrue(body.contains(key), "mqTable keys " + queue + " as an object: " + body);
                }
                assertFalse(body.contains("\"jstack\""), "no stacks unless asked for");
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void aMessageConsumedDirectlyThroughTheBrokerRunsTheListenerAgain(Vertx vertx, VertxTestContext test) {
        String topic = "TopicDirect";
        String group = "CG-direct";
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-direct"));
        RemotingClient admin = new RemotingClient(vertx, RemotingLimits.defaults());
        Received received = new Received();
        AtomicReference<VrmqPushConsumer> consumer = new AtomicReference<>();
        AtomicReference<String> offsetMsgId = new AtomicReference<>();

        cluster.createTopic(vertx, topic, 1)
            .compose(created -> producer.start())
            .compose(started -> producer.send(Message.of(topic, "T", "direct".getBytes(StandardCharsets.UTF_8))))
            .compose(sent -> {
                offsetMsgId.set(sent.offsetMsgId());
                return startConsumer(vertx, topic, group, received).onSuccess(consumer::set);
            })
            .compose(started -> received.untilDistinct(1))
            .compose(consumed -> admin.invoke(cluster.brokerAddr(), RemotingCommand.request(
                RequestCode.CONSUME_MESSAGE_DIRECTLY, Map.of("consumerGroup", group, "clientId",
                    consumer.get().clientId(), "msgId", offsetMsgId.get(), "topic", topic), null)))
            .compose(answer -> received.until(all -> all.deliveryCount() >= 2).map(answer))
            .eventually(() -> closeAll(consumer.get(), producer, admin))
            .onComplete(test.succeeding(answer -> test.verify(() -> {
                assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
                String body = answer.body().toString(StandardCharsets.UTF_8);
                assertTrue(body.contains("\"consumeResult\":\"CR_SUCCESS\""), body);
                assertEquals(2, received.deliveries().size(), "the listener ran once more on the stored message");
                test.completeNow();
            })));
    }

    private static Future<Void> sendAll(VrmqProducer producer, String topic) {
        Future<Void> sends = Future.succeededFuture();
        for (int index = 0; index < MESSAGE_COUNT; index++) {
            Message message = Message.of(topic, "T", ("message " + index).getBytes(StandardCharsets.UTF_8));
            sends = sends.compose(previous -> producer.send(message)).mapEmpty();
        }
        return sends;
    }

    private static Future<VrmqPushConsumer> startConsumer(Vertx vertx, String topic, String group,
                                                          Received received) {
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(), group));
        consumer.subscribe(topic, "*").registerListener((messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        });
        return consumer.start().map(consumer);
    }

    private static Future<Void> closeAll(VrmqPushConsumer consumer, VrmqProducer producer, RemotingClient admin) {
        Future<Void> consumerClosed = consumer == null ? Future.succeededFuture() : consumer.close();
        return consumerClosed.eventually(producer::close).eventually(admin::close);
    }
}
