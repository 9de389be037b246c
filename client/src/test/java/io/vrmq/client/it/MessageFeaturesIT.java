package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ClientException;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Our client's SQL92 subscriptions and request-reply against our NameServer and broker: a push consumer with an SQL
 * filter gets only the matching messages, one with an expression that does not parse fails to start with
 * SUBSCRIPTION_PARSE_FAILED, and a request is answered by a consumer that replies with {@code replyTo}.
 */
@ExtendWith(VertxExtension.class)
class MessageFeaturesIT {
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
    void anSqlSubscriptionGetsOnlyTheMatchingMessages(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-sql"));
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-sql"));
        Received received = new Received();
        consumer.subscribeSql("TopicSql", "price BETWEEN 10 AND 20 AND TAGS = 'A'")
            .registerListener((messages, queue) -> {
                received.add(messages);
                return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
            });
        producer.start()
            .compose(started -> producer.send(Message.of("TopicSql", "create".getBytes(StandardCharsets.UTF_8))))
            .compose(created -> consumer.start())
            .compose(started -> {
                Future<?> sends = Future.succeededFuture();
                for (int price = 5; price <= 25; price += 5) {
                    for (String tag : List.of("A", "B")) {
                        Message message = Message.of("TopicSql", tag, (tag + price).getBytes(StandardCharsets.UTF_8))
                            .withProperty("price", Integer.toString(price));
                        sends = sends.compose(previous -> producer.send(message));
                    }
                }
                return sends;
            })
            .compose(sent -> received.untilDistinct(3))
            .eventually(consumer::close)
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                Set<String> bodies = new TreeSet<>();
                received.deliveries().forEach(message -> bodies.add(new String(message.body(),
                    StandardCharsets.UTF_8)));
                assertEquals(Set.of("A10", "A15", "A20"), bodies);
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void anExpressionThatDoesNotParseFailsTheStart(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-bad"));
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-bad"));
        consumer.subscribeSql("TopicSqlBad", "price >").registerListener((messages, queue) ->
            Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS));
        producer.start()
            .compose(started -> producer.send(Message.of("TopicSqlBad", "x".getBytes(StandardCharsets.UTF_8))))
            .compose(created -> consumer.start())
            .eventually(consumer::close)
            .eventually(producer::close)
            .onComplete(test.failing(error -> test.verify(() -> {
                ClientException refused = assertInstanceOf(ClientException.class, error, error.toString());
                assertEquals(ResponseCode.SUBSCRIPTION_PARSE_FAILED, refused.responseCode(), refused.toString());
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void aRequestIsAnsweredByAConsumerThatReplies(Vertx vertx, VertxTestContext test) {
        VrmqProducer requester = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-req"));
        VrmqProducer replier = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-rep"));
        VrmqPushConsumer responder = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-rep"));
        responder.subscribe("TopicRequest", "*").registerListener((messages, queue) -> {
            Future<?> replies = Future.succeededFuture();
            for (ReceivedMessage request : messages) {
                if (request.property("CORRELATION_ID") != null) {
                    byte[] answer = ("re:" + new String(request.body(), StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8);
                    replies = replies.compose(previous -> replier.send(VrmqProducer.replyTo(request, answer)));
                }
            }
            return replies.map(ConsumeConcurrentlyStatus.CONSUME_SUCCESS)
                .otherwise(ConsumeConcurrentlyStatus.RECONSUME_LATER);
        });
        requester.start()
            .compose(started -> replier.start())
            .compose(started -> requester.send(Message.of("TopicRequest", "create".getBytes(StandardCharsets.UTF_8))))
            .compose(created -> responder.start())
            .compose(started -> requester.request(Message.of("TopicRequest", "ping".getBytes(StandardCharsets.UTF_8)),
                15_000))
            .eventually(responder::close)
            .eventually(replier::close)
            .eventually(requester::close)
            .onComplete(test.succeeding(reply -> test.verify(() -> {
                assertEquals("re:ping", new String(reply.body(), StandardCharsets.UTF_8));
                assertEquals("reply", reply.property("MSG_TYPE"));
                test.completeNow();
            })));
    }
}
