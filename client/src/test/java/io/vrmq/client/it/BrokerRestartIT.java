package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.MessageListenerConcurrently;
import io.vrmq.client.SendResult;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two brokers serve a topic; one is stopped mid-run and started again on the same store. Sends go on (retried on
 * and then routed to the other broker), and the consumer resumes the restarted broker's queues from their committed
 * offsets: every message consumed, duplicates counted and printed.
 */
@ExtendWith(VertxExtension.class)
class BrokerRestartIT {
    private static final String TOPIC = "TopicRestart";
    private static final int PER_PHASE = 60;
    private TestCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Timeout(value = 120, timeUnit = TimeUnit.SECONDS)
    void sendsRouteAroundAStoppedBrokerAndConsumptionResumesAfterItsRestart(Vertx vertx, VertxTestContext test,
                                                                            @TempDir Path dir) {
        cluster = TestCluster.start(dir, 2);
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-restart"));
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-restart"));
        Received received = new Received();
        MessageListenerConcurrently listener = (messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };
        consumer.subscribe(TOPIC, "*").registerListener(listener);
        List<SendResult> whileDown = new ArrayList<>();

        Future.all(cluster.createTopic(vertx, cluster.brokerAddr(0), TOPIC, 4),
                cluster.createTopic(vertx, cluster.brokerAddr(1), TOPIC, 4))
            .compose(created -> producer.start())
            .compose(started -> consumer.start())
            .compose(started -> sendMany(producer, 0, PER_PHASE, new ArrayList<>()))
            .compose(sent -> received.untilDistinct(PER_PHASE))
            .compose(consumed -> vertx.executeBlocking(() -> {
                cluster.stopBroker(1);
                return null;
            }))
            .compose(stopped -> sendMany(producer, PER_PHASE, PER_PHASE, whileDown))
            .compose(sent -> vertx.executeBlocking(() -> {
                cluster.startBroker(1);
                return null;
            }))
            .compose(restarted -> sendMany(producer, 2 * PER_PHASE, PER_PHASE, new ArrayList<>()))
            .compose(sent -> received.untilDistinct(3 * PER_PHASE))
            .eventually(consumer::close)
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                System.out.printf("BrokerRestartIT: %d messages sent, %d consumed at least once, %d duplicates%n",
                    3 * PER_PHASE, received.distinctCount(), received.duplicateCount());
                assertEquals(3 * PER_PHASE, received.distinctCount());
                assertEquals(PER_PHASE, whileDown.size(), "every send while a broker was down succeeded");
                assertTrue(whileDown.stream().allMatch(result -> result.messageQueue().brokerName()
                    .equals("broker-a")), "sends while broker-b was down went to broker-a");
                assertTrue(Set.of("broker-a", "broker-b").containsAll(received.deliveries().stream()
                    .map(message -> message.brokerName()).toList()));
                test.completeNow();
            })));
    }

    private static Future<SendResult> sendMany(VrmqProducer producer, int from, int count, List<SendResult> sent) {
        Future<SendResult> chain = Future.succeededFuture();
        for (int index = from; index < from + count; index++) {
            Message message = Message.of(TOPIC, ("message-" + index).getBytes(StandardCharsets.UTF_8));
            chain = chain.compose(previous -> producer.send(message)).onSuccess(sent::add);
        }
        return chain;
    }
}
