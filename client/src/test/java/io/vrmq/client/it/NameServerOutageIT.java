package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ClientException;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.MessageListenerConcurrently;
import io.vrmq.client.SendResult;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Attempts;
import io.vrmq.client.it.support.FreePorts;
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
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Every NameServer stops mid-run: cached routes keep sends and consumption of known topics going, a topic never seen
 * cannot be routed, and once a NameServer is back (the broker re-registers within its 2 s period) routes resolve
 * again. The client's list also names a NameServer that never existed, so look-ups fail over too.
 */
@ExtendWith(VertxExtension.class)
class NameServerOutageIT {
    private static final int MESSAGES_PER_PHASE = 20;
    private TestCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Timeout(value = 90, timeUnit = TimeUnit.SECONDS)
    void sendsToKnownTopicsContinueWhileEveryNameServerIsDownAndRoutesRecover(Vertx vertx, VertxTestContext test,
                                                                               @TempDir Path dir) {
        cluster = TestCluster.start(dir);
        String namesrvAddr = "127.0.0.1:" + FreePorts.any() + ";" + cluster.namesrvAddr();
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(namesrvAddr, "PG-outage"));
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(namesrvAddr, "CG-outage"));
        Received received = new Received();
        MessageListenerConcurrently listener = (messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };
        consumer.subscribe("TopicKnown", "*").registerListener(listener);
        List<Throwable> unroutable = new ArrayList<>();

        producer.start()
            .compose(started -> sendMany(producer, "TopicKnown", "before", MESSAGES_PER_PHASE))
            .compose(sent -> consumer.start())
            .compose(started -> received.untilDistinct(MESSAGES_PER_PHASE))
            .compose(consumed -> vertx.executeBlocking(() -> {
                cluster.stopNameServer();
                return null;
            }))
            .compose(stopped -> producer.send(message("TopicNeverSeen", "lost"))
                .<Void>transform(outcome -> {
                    if (outcome.succeeded()) {
                        return Future.failedFuture("a topic nobody routed was sent to while no NameServer runs");
                    }
                    unroutable.add(outcome.cause());
                    return Future.succeededFuture();
                }))
            .compose(refused -> sendMany(producer, "TopicKnown", "during", MESSAGES_PER_PHASE))
            .compose(sent -> received.untilDistinct(2 * MESSAGES_PER_PHASE))
            .compose(consumed -> vertx.executeBlocking(() -> {
                cluster.startNameServer();
                return null;
            }))
            .compose(restarted -> Attempts.until(vertx, 40, 500,
                () -> producer.send(message("TopicAfterOutage", "routed again"))))
            .compose(routed -> sendMany(producer, "TopicKnown", "after", MESSAGES_PER_PHASE))
            .compose(sent -> received.untilDistinct(3 * MESSAGES_PER_PHASE))
            .eventually(consumer::close)
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                assertInstanceOf(ClientException.class, unroutable.get(0));
                assertEquals(3 * MESSAGES_PER_PHASE, received.distinctCount());
                test.completeNow();
            })));
    }

    private static Future<SendResult> sendMany(VrmqProducer producer, String topic, String phase, int count) {
        Future<SendResult> chain = Future.succeededFuture();
        for (int index = 0; index < count; index++) {
            Message message = message(topic, phase + "-" + index);
            chain = chain.compose(previous -> producer.send(message));
        }
        return chain;
    }

    private static Message message(String topic, String text) {
        return Message.of(topic, text.getBytes(StandardCharsets.UTF_8));
    }
}
