package io.vrmq.client.it;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.ConsumeFromWhere;
import io.vrmq.client.ConsumerOptions;
import io.vrmq.client.Message;
import io.vrmq.client.ProducerOptions;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.SendResult;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Attempts;
import io.vrmq.client.it.support.FreePorts;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Message trace through our client against our broker: with enableMsgTrace on, a sent and consumed message has its
 * Pub, SubBefore and SubAfter records found by the broker's admin view (GET /api/v1/messages/{msgId}/trace), which
 * parses the official client's layout, with group, topic, store host, status and cost; with it off, nothing is
 * written; a failed consumption and its retry are two attempts, failed (ConsumeReturnType FAILED) then successful,
 * also in a customizedTraceTopic. The broker creates RMQ_SYS_TRACE_TOPIC at start (traceTopicEnable); the custom
 * one is auto-created by the first trace send.
 */
@ExtendWith(VertxExtension.class)
class MessageTraceIT {
    /** The listener takes at least this long, so the SubAfter cost is seen to measure it. */
    private static final long LISTENER_MS = 50;
    private static TestCluster cluster;
    private static int adminPort;

    @BeforeAll
    static void startCluster(@TempDir Path dir) {
        adminPort = FreePorts.any();
        cluster = TestCluster.start(dir, 1, new JsonObject(), new JsonObject().put("traceTopicEnable", true)
            .put("adminPort", adminPort));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void aTracedMessageHasPubSubBeforeAndSubAfterRecords(Vertx vertx, VertxTestContext test) {
        byte[] body = "traced".getBytes(StandardCharsets.UTF_8);
        AtomicReference<SendResult> sent = new AtomicReference<>();
        sendAndConsume(vertx, "TopicTraceOn", "PG-trace", "CG-trace", true, Message.of("TopicTraceOn", "TagT", body)
            .withKeys("order-7"), sent)
            .compose(consumed -> Attempts.until(vertx, 40, 250, () -> traceView(vertx, sent.get().msgId())
                .compose(view -> isComplete(view) ? Future.succeededFuture(view)
                    : Future.failedFuture("trace not complete yet: " + view.encode()))))
            .onComplete(test.succeeding(view -> test.verify(() -> {
                String text = view.encodePrettily();
                JsonArray published = view.getJsonArray("published");
                assertEquals(1, published.size(), text);
                JsonObject pub = published.getJsonObject(0);
                assertEquals("PG-trace", pub.getString("group"), text);
                assertEquals("TopicTraceOn", pub.getString("topic"), text);
                assertEquals("TagT", pub.getString("tags"), text);
                assertEquals("order-7", pub.getString("keys"), text);
                assertEquals(cluster.brokerAddr(), pub.getString("storeHost"), text);
                assertEquals(body.length, pub.getInteger("bodyLength"), text);
                assertEquals("Normal_Msg", pub.getString("msgType"), text);
                assertEquals(sent.get().offsetMsgId(), pub.getString("offsetMsgId"), text);
                assertEquals(true, pub.getBoolean("success"), text);
                assertTrue(pub.getInteger("costTimeMs") >= 0, text);

                JsonArray consumed = view.getJsonArray("consumed");
                assertEquals(1, consumed.size(), text);
                JsonObject attempt = consumed.getJsonObject(0);
                assertEquals("CG-trace", attempt.getString("group"), text);
                assertEquals(0, attempt.getInteger("retryTimes"), text);
                assertEquals(true, attempt.getBoolean("finished"), text);
                assertEquals(true, attempt.getBoolean("success"), text);
                assertEquals(0, attempt.getInteger("contextCode"), text);
                assertTrue(attempt.getInteger("costTimeMs") >= LISTENER_MS, text);
                assertTrue(attempt.getLong("endTimestamp") >= attempt.getLong("beginTimestamp"), text);
                assertEquals("TopicTraceOn", view.getJsonObject("stored").getString("topic"), text);
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void withTraceOffNothingIsWritten(Vertx vertx, VertxTestContext test) {
        AtomicReference<SendResult> sent = new AtomicReference<>();
        sendAndConsume(vertx, "TopicTraceOff", "PG-untraced", "CG-untraced", false, Message.of("TopicTraceOff",
            "untraced".getBytes(StandardCharsets.UTF_8)).withKeys("order-8"), sent)
            .compose(consumed -> traceStatus(vertx, sent.get().msgId()))
            .onComplete(test.succeeding(status -> test.verify(() -> {
                assertEquals(404, status, "a trace view for an untraced message");
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
    void aFailedConsumptionAndItsRetryAreTracedToACustomizedTraceTopic(Vertx vertx, VertxTestContext test) {
        String traceTopic = "TraceTopicCustom";
        AtomicReference<SendResult> sent = new AtomicReference<>();
        sendAndConsume(vertx, "TopicTraceRetry", "PG-retry", "CG-retry", true, traceTopic,
            Message.of("TopicTraceRetry", "retried".getBytes(StandardCharsets.UTF_8)), sent,
            received -> received.reconsumeTimes() == 0 ? ConsumeConcurrentlyStatus.RECONSUME_LATER
                : ConsumeConcurrentlyStatus.CONSUME_SUCCESS,
            all -> all.deliveries().stream().anyMatch(message -> message.reconsumeTimes() > 0))
            .compose(consumed -> Attempts.until(vertx, 40, 250, () -> traceView(vertx, sent.get().msgId(),
                    traceTopic)
                .compose(view -> view.getJsonArray("consumed").size() == 2 && view.getJsonArray("consumed").stream()
                    .allMatch(attempt -> ((JsonObject) attempt).getBoolean("finished"))
                    ? Future.succeededFuture(view) : Future.failedFuture("trace not complete yet: " + view.encode()))))
            .onComplete(test.succeeding(view -> test.verify(() -> {
                String text = view.encodePrettily();
                assertEquals(traceTopic, view.getString("traceTopic"), text);
                assertEquals("PG-retry", view.getJsonArray("published").getJsonObject(0).getString("group"), text);
                JsonObject failed = view.getJsonArray("consumed").getJsonObject(0);
                assertEquals("CG-retry", failed.getString("group"), text);
                assertEquals(0, failed.getInteger("retryTimes"), text);
                assertEquals(false, failed.getBoolean("success"), text);
                assertEquals(4, failed.getInteger("contextCode"), text);   // ConsumeReturnType.FAILED
                JsonObject retried = view.getJsonArray("consumed").getJsonObject(1);
                assertEquals(1, retried.getInteger("retryTimes"), text);
                assertEquals(true, retried.getBoolean("success"), text);
                assertEquals(0, retried.getInteger("contextCode"), text);
                test.completeNow();
            })));
    }

    /**
     * Sends {@code message}, consumes it with a listener that takes LISTENER_MS and answers what {@code answer} says
     * for the first message of each batch, until {@code isDone}; then closes both clients, which sends their last
     * trace records.
     *
     * @param traceTopic the customizedTraceTopic, or null for the default
     */
    private static Future<Void> sendAndConsume(Vertx vertx, String topic, String producerGroup, String consumerGroup,
                                               boolean isTraced, String traceTopic, Message message,
                                               AtomicReference<SendResult> sent,
                                               Function<ReceivedMessage, ConsumeConcurrentlyStatus> answer,
                                               Predicate<Received> isDone) {
        ProducerOptions producerOptions = TestClients.producer(cluster.namesrvAddr(), producerGroup)
            .setEnableMsgTrace(isTraced).setTraceFlushIntervalMs(100);
        ConsumerOptions consumerOptions = TestClients.consumer(cluster.namesrvAddr(), consumerGroup)
            .setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET)
            .setEnableMsgTrace(isTraced).setTraceFlushIntervalMs(100);
        if (traceTopic != null) {
            producerOptions.setCustomizedTraceTopic(traceTopic);
            consumerOptions.setCustomizedTraceTopic(traceTopic);
        }
        VrmqProducer producer = new VrmqProducer(vertx, producerOptions);
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, consumerOptions);
        Received received = new Received();
        consumer.subscribe(topic, "*").registerListener((messages, queue) -> {
            Future<ConsumeConcurrentlyStatus> result = vertx.timer(LISTENER_MS)
                .map(fired -> answer.apply(messages.get(0)));
            // counted received in a later task, once the consumer has seen the result (and traced SubAfter)
            Context context = Vertx.currentContext();
            result.onSuccess(status -> context.runOnContext(later -> received.add(messages)));
            return result;
        });
        return producer.start()
            .compose(started -> producer.send(message))
            .onSuccess(sent::set)
            .compose(stored -> consumer.start())
            .compose(started -> received.until(isDone))
            .eventually(consumer::close)
            .eventually(producer::close);
    }

    private static Future<Void> sendAndConsume(Vertx vertx, String topic, String producerGroup, String consumerGroup,
                                               boolean isTraced, Message message,
                                               AtomicReference<SendResult> sent) {
        return sendAndConsume(vertx, topic, producerGroup, consumerGroup, isTraced, null, message, sent,
            received -> ConsumeConcurrentlyStatus.CONSUME_SUCCESS, all -> all.contains(sent.get().msgId()));
    }

    private static boolean isComplete(JsonObject view) {
        JsonArray consumed = view.getJsonArray("consumed");
        return !view.getJsonArray("published").isEmpty() && !consumed.isEmpty()
            && consumed.getJsonObject(0).getBoolean("finished");
    }

    private static Future<JsonObject> traceView(Vertx vertx, String msgId) {
        return traceView(vertx, msgId, null);
    }

    private static Future<JsonObject> traceView(Vertx vertx, String msgId, String traceTopic) {
        return get(vertx, msgId, traceTopic).compose(response -> response.status() == 200
            ? Future.succeededFuture(new JsonObject(response.body()))
            : Future.failedFuture("HTTP " + response.status() + ": " + response.body()));
    }

    private static Future<Integer> traceStatus(Vertx vertx, String msgId) {
        return get(vertx, msgId, null).map(Reply::status);
    }

    private record Reply(int status, String body) {
    }

    private static Future<Reply> get(Vertx vertx, String msgId, String traceTopic) {
        HttpClient client = vertx.createHttpClient();
        String path = "/api/v1/messages/" + msgId + "/trace" + (traceTopic == null ? "" : "?traceTopic=" + traceTopic);
        return client.request(HttpMethod.GET, adminPort, "127.0.0.1", path)
            .compose(request -> request.send())
            .compose(response -> response.body().map(body -> new Reply(response.statusCode(),
                body.toString(StandardCharsets.UTF_8))))
            .eventually(client::close);
    }
}
