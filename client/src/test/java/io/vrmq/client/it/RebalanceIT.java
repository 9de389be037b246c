package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.MessageListenerConcurrently;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.SendResult;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Attempts;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Three consumers of one group share a 12-queue topic while messages flow; then one leaves. Every message must be
 * consumed at least once; duplicates (expected only around the changes) are counted and printed.
 */
@ExtendWith(VertxExtension.class)
class RebalanceIT {
    private static final String TOPIC = "TopicRebalance";
    private static final String GROUP = "CG-rebalance";
    private static final int QUEUES = 12;
    private static final int PER_PHASE = 150;
    private TestCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Timeout(value = 90, timeUnit = TimeUnit.SECONDS)
    void threeConsumersShareTwelveQueuesAndNoMessageIsLostWhenOneLeaves(Vertx vertx, VertxTestContext test,
                                                                         @TempDir Path dir) {
        cluster = TestCluster.start(dir);
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-rebalance"));
        Received received = new Received();
        VrmqPushConsumer first = consumer(vertx, received);
        VrmqPushConsumer second = consumer(vertx, received);
        VrmqPushConsumer third = consumer(vertx, received);

        cluster.createTopic(vertx, TOPIC, QUEUES)
            .compose(created -> producer.start())
            .compose(started -> Attempts.until(vertx, 20, 500, () -> producer.writeQueues(TOPIC)
                .compose(queues -> queues.size() == QUEUES ? Future.succeededFuture(queues)
                    : Future.failedFuture("route has " + queues.size() + " queues"))))
            .compose(routed -> first.start())
            .compose(started -> sendMany(producer, 0, PER_PHASE))
            .compose(sent -> Future.all(second.start(), third.start(), sendMany(producer, PER_PHASE, PER_PHASE)))
            .compose(joined -> Attempts.until(vertx, 40, 250, () -> assignedSplit(List.of(first, second, third),
                List.of(4, 4, 4))))
            .compose(balanced -> Future.all(third.close(), sendMany(producer, 2 * PER_PHASE, PER_PHASE)))
            .compose(left -> Attempts.until(vertx, 40, 250, () -> assignedSplit(List.of(first, second),
                List.of(6, 6))))
            .compose(balanced -> sendMany(producer, 3 * PER_PHASE, PER_PHASE))
            .compose(sent -> received.untilDistinct(4 * PER_PHASE))
            .eventually(() -> Future.join(first.close(), second.close()))
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                System.out.printf("RebalanceIT: %d messages sent, %d consumed at least once, %d deliveries,"
                        + " %d duplicates%n", 4 * PER_PHASE, received.distinctCount(), received.deliveryCount(),
                    received.duplicateCount());
                assertEquals(4 * PER_PHASE, received.distinctCount());
                test.completeNow();
            })));
    }

    private VrmqPushConsumer consumer(Vertx vertx, Received received) {
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(), GROUP));
        MessageListenerConcurrently listener = (messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };
        consumer.subscribe(TOPIC, "*").registerListener(listener);
        return consumer;
    }

    /** Succeeds when the consumers hold these many queues of the topic each, all distinct. */
    private static Future<Void> assignedSplit(List<VrmqPushConsumer> consumers, List<Integer> expected) {
        List<Future<Set<MessageQueue>>> assigned = consumers.stream().map(VrmqPushConsumer::assignedQueues).toList();
        return Future.all(assigned).compose(all -> {
            Set<MessageQueue> union = new HashSet<>();
            List<Integer> sizes = assigned.stream().map(future -> (int) future.result().stream()
                .filter(queue -> queue.topic().equals(TOPIC)).peek(union::add).count()).toList();
            return sizes.equals(expected) && union.size() == QUEUES ? Future.succeededFuture()
                : Future.failedFuture("queues per consumer " + sizes + ", expected " + expected);
        });
    }

    private static Future<SendResult> sendMany(VrmqProducer producer, int from, int count) {
        Future<SendResult> chain = Future.succeededFuture();
        for (int index = from; index < from + count; index++) {
            Message message = Message.of(TOPIC, ("message-" + index).getBytes(StandardCharsets.UTF_8));
            chain = chain.compose(previous -> producer.send(message));
        }
        return chain;
    }
}
