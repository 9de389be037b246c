package io.vrmq.client.it;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.ConsumerOptions;
import io.vrmq.client.Message;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Attempts;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flow control: a queue holding more than pullThresholdForQueue messages is not pulled until its listener catches
 * up. The listener here holds every future until the consumer reports that flow control paused the queue; had the
 * consumer kept pulling, it would have held far more than threshold + one pull batch by then (or never paused).
 */
@ExtendWith(VertxExtension.class)
class FlowControlIT {
    private static final String TOPIC = "TopicFlowControl";
    private static final int MESSAGE_COUNT = 60;
    private static final int PULL_THRESHOLD = 10;
    private static final int PULL_BATCH = 2;
    private TestCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void aQueueStopsBeingPulledOnceItHoldsMoreThanPullThresholdForQueue(Vertx vertx, VertxTestContext test,
                                                                        @TempDir Path dir) {
        cluster = TestCluster.start(dir);
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-flow"));
        HoldingListener listener = new HoldingListener();
        ConsumerOptions options = TestClients.consumer(cluster.namesrvAddr(), "CG-flow")
            .setPullThresholdForQueue(PULL_THRESHOLD)
            .setPullBatchSize(PULL_BATCH)
            .setConsumeMessageBatchMaxSize(1)
            .setConsumeConcurrency(MESSAGE_COUNT);
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, options);
        consumer.subscribe(TOPIC, "*").registerListener(listener::consume);
        AtomicReference<Integer> heldAtPause = new AtomicReference<>();

        cluster.createTopic(vertx, TOPIC, 1)
            .compose(created -> producer.start())
            .compose(started -> sendAll(producer))
            .compose(sent -> consumer.start())
            .compose(started -> Attempts.until(vertx, 200, 100, () -> consumer.flowControlCount()
                .compose(count -> count > 0 ? Future.succeededFuture() : Future.failedFuture("not paused yet"))))
            .compose(paused -> listener.releaseAll().onSuccess(heldAtPause::set))
            .compose(released -> listener.received.untilDistinct(MESSAGE_COUNT))
            .eventually(consumer::close)
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                assertEquals(MESSAGE_COUNT, listener.received.deliveryCount(), "each message consumed exactly once");
                assertTrue(heldAtPause.get() > PULL_THRESHOLD, "paused only above the threshold: " + heldAtPause);
                assertTrue(listener.maxHeld() <= PULL_THRESHOLD + PULL_BATCH,
                    "held at most threshold + one batch, held " + listener.maxHeld());
                test.completeNow();
            })));
    }

    private static Future<Void> sendAll(VrmqProducer producer) {
        Future<Void> sends = Future.succeededFuture();
        for (int index = 0; index < MESSAGE_COUNT; index++) {
            Message message = Message.of(TOPIC, "T", ("message " + index).getBytes(StandardCharsets.UTF_8));
            sends = sends.compose(previous -> producer.send(message)).mapEmpty();
        }
        return sends;
    }

    /**
     * Holds each delivery's future until {@link #releaseAll()}, then consumes at once. Called on the consumer's
     * context; the futures are completed there too. Synchronized: the test thread reads the counts.
     */
    private static final class HoldingListener {
        private final Received received = new Received();
        private final List<Promise<ConsumeConcurrentlyStatus>> holding = new ArrayList<>();
        private Context consumerContext;
        private boolean isReleased;
        private int maxHeld;

        synchronized Future<ConsumeConcurrentlyStatus> consume(List<ReceivedMessage> messages, MessageQueue queue) {
            received.add(messages);
            if (isReleased) {
                return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
            }
            consumerContext = Vertx.currentContext();
            Promise<ConsumeConcurrentlyStatus> held = Promise.promise();
            holding.add(held);
            maxHeld = Math.max(maxHeld, holding.size());
            return held.future();
        }

        synchronized int maxHeld() {
            return maxHeld;
        }

        /** Completes every held future on the consumer's context; answers how many were held. */
        synchronized Future<Integer> releaseAll() {
            isReleased = true;
            List<Promise<ConsumeConcurrentlyStatus>> released = List.copyOf(holding);
            holding.clear();
            Promise<Integer> done = Promise.promise();
            consumerContext.runOnContext(ignored -> {
                released.forEach(held -> held.complete(ConsumeConcurrentlyStatus.CONSUME_SUCCESS));
                done.complete(released.size());
            });
            return done.future();
        }
    }
}
