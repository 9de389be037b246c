package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.Message;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.SendResult;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPullConsumer;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our pull consumer against our NameServer and broker: assign, poll, commit, seek to an offset and to a time. */
@ExtendWith(VertxExtension.class)
class PullConsumerIT {
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
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aPullConsumerPollsCommitsAndSeeks(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-pull"));
        VrmqPullConsumer consumer = new VrmqPullConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-pull"));
        List<SendResult> sent = new ArrayList<>();
        List<ReceivedMessage> polled = new ArrayList<>();
        List<ReceivedMessage> afterSeek = new ArrayList<>();
        List<ReceivedMessage> afterTimeSeek = new ArrayList<>();
        long[] committed = new long[1];

        producer.start()
            .compose(started -> producer.send(Message.of("TopicPull", "create".getBytes(StandardCharsets.UTF_8))))
            .compose(created -> {
                MessageQueue queue = new MessageQueue("TopicPull", created.messageQueue().brokerName(), 0);
                Future<SendResult> sends = Future.succeededFuture();
                for (int index = 0; index < 10; index++) {
                    Message message = Message.of("TopicPull", ("pull-" + index).getBytes(StandardCharsets.UTF_8));
                    sends = sends.compose(previous -> producer.send(message, queue)).onSuccess(sent::add);
                }
                return sends.map(queue);
            })
            .compose(queue -> consumer.start()
                .compose(started -> consumer.assign(List.of(queue)))
                .compose(assigned -> pollUntil(consumer, queue, sent.get(9).queueOffset(), polled))
                .compose(all -> consumer.commit())
                .compose(done -> consumer.committed(queue)).onSuccess(offset -> committed[0] = offset)
                .compose(offset -> consumer.seek(queue, sent.get(5).queueOffset()))
                .compose(moved -> pollUntil(consumer, queue, sent.get(9).queueOffset(), afterSeek))
                .compose(again -> consumer.seekToTimestamp(queue, 0))
                .compose(moved -> pollUntil(consumer, queue, sent.get(0).queueOffset(), afterTimeSeek)))
            .eventually(consumer::close)
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                List<String> sentIds = sent.stream().map(SendResult::msgId).toList();
                assertTrue(polled.stream().map(ReceivedMessage::msgId).toList().containsAll(sentIds), "all polled");
                assertEquals(sent.get(9).queueOffset() + 1, committed[0], "commit moves past the last polled");
                assertEquals(sent.get(5).queueOffset(), afterSeek.get(0).queueOffset(), "seek to an offset");
                assertEquals(0, afterTimeSeek.get(0).queueOffset(), "seek to the first message stored after 0");
                test.completeNow();
            })));
    }

    /** Polls until a message at {@code lastOffset} of {@code queue} came. */
    private static Future<Void> pollUntil(VrmqPullConsumer consumer, MessageQueue queue, long lastOffset,
                                          List<ReceivedMessage> collected) {
        return consumer.poll(1_000).compose(messages -> {
            collected.addAll(messages);
            boolean isDone = messages.stream().anyMatch(message -> message.queueId() == queue.queueId()
                && message.queueOffset() >= lastOffset);
            return isDone ? Future.succeededFuture() : pollUntil(consumer, queue, lastOffset, collected);
        });
    }
}
