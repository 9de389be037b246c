package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.ConsumeOrderlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.MessageListenerConcurrently;
import io.vrmq.client.MessageListenerOrderly;
import io.vrmq.client.MessageQueueSelector;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.SendResult;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.OfficialClientProcess;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Our client and the official 5.5.0 client, in both directions, through our NameServer and broker: ordered keys
 * stay in order, tag filters hold, bodies (compressed ones too), keys and properties arrive intact, message ids are
 * the same on both sides, a failed message comes back with reconsumeTimes 1, a delayed message is not early.
 * The official client runs in its own JVM (see {@link OfficialClientProcess}); without its classpath file the
 * tests are skipped.
 */
@ExtendWith(VertxExtension.class)
class InteropIT {
    private static final int COUNT = 30;
    private static final long DELAY_MS = 2_000;    // level 2 of TestCluster.DELAY_LEVELS
    private static TestCluster cluster;
    private static Path dir;

    @BeforeAll
    static void startCluster(@TempDir Path tempDir) {
        assumeTrue(OfficialClientProcess.classpathFile() != null, "no official client classpath: run `mvn -q -pl"
            + " compat-tests dependency:build-classpath -Dmdep.includeScope=test"
            + " -Dmdep.outputFile=compat-tests/target/official-client-classpath.txt` first");
        dir = tempDir;
        cluster = TestCluster.start(tempDir);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Timeout(value = 120, timeUnit = TimeUnit.SECONDS)
    void officialProducerToOurPushConsumers(Vertx vertx, VertxTestContext test) {
        Received ordered = new Received();
        Received retries = new Received();
        Map<String, Long> receivedAtMs = new ConcurrentHashMap<>();
        MessageListenerOrderly orderly = (messages, queue) -> {
            messages.forEach(message -> receivedAtMs.put(message.msgId(), System.currentTimeMillis()));
            ordered.add(messages);
            return Future.succeededFuture(ConsumeOrderlyStatus.SUCCESS);
        };
        MessageListenerConcurrently failingOnce = (messages, queue) -> {
            retries.add(messages);
            boolean isFirstOfK2 = messages.stream().anyMatch(message -> bodyPrefix(message).equals("k2:0")
                && message.reconsumeTimes() == 0);
            return Future.succeededFuture(isFirstOfK2 ? ConsumeConcurrentlyStatus.RECONSUME_LATER
                : ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        };
        VrmqPushConsumer orderConsumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-ours-order"));
        orderConsumer.subscribe("InteropA", "TagA").registerOrderlyListener(orderly);
        VrmqPushConsumer retryConsumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-ours-retry"));
        retryConsumer.subscribe("InteropA", "*").registerListener(failingOnce);
        List<String[]> sent = new ArrayList<>();

        vertx.executeBlocking(() -> OfficialClientProcess.fields(OfficialClientProcess.run(
                dir.resolve("official-producer.log"), "produce", "namesrv=" + cluster.namesrvAddr(),
                "topic=InteropA", "group=PG-official", "count=" + COUNT), "SENT"))
            .onSuccess(sent::addAll)
            .compose(produced -> Future.all(orderConsumer.start(), retryConsumer.start()))
            .compose(started -> ordered.untilDistinct(countTagged(sent, "TagA")))
            .compose(done -> retries.until(all -> all.deliveries().stream()
                .anyMatch(message -> bodyPrefix(message).equals("k2:0") && message.reconsumeTimes() == 1)))
            .eventually(() -> Future.join(orderConsumer.close(), retryConsumer.close()))
            .onComplete(test.succeeding(done -> test.verify(() -> {
                Set<String> expectedIds = new HashSet<>();
                sent.stream().filter(fields -> fields[2].equals("TagA")).forEach(fields -> expectedIds.add(fields[1]));
                List<ReceivedMessage> deliveries = ordered.deliveries();
                assertEquals(expectedIds, idsOf(deliveries), "TagA messages by the official ids, no TagB");
                assertInOrderPerKey(deliveries.stream().map(InteropIT::bodyPrefix).toList());
                for (ReceivedMessage message : deliveries) {
                    assertEquals("TagA", message.tags());
                    assertEquals(bodyPrefix(message).split(":")[0], message.keys());
                    if (!message.keys().equals("delayed")) {
                        assertEquals("red", message.property("color"));
                    }
                }
                assertTrue(deliveries.stream().anyMatch(message -> message.body().length >= 6_000),
                    "a body the official producer compressed arrives inflated");
                ReceivedMessage delayed = deliveries.stream().filter(message -> message.keys().equals("delayed"))
                    .findFirst().orElseThrow();
                long waitedMs = receivedAtMs.get(delayed.msgId()) - delayed.bornTimestamp();
                assertTrue(waitedMs >= DELAY_MS, "delayed message came after " + waitedMs + " ms");
                ReceivedMessage retried = retries.deliveries().stream()
                    .filter(message -> message.reconsumeTimes() == 1).findFirst().orElseThrow();
                assertEquals("InteropA", retried.topic());
                assertTrue(expectedIds.contains(retried.msgId()) || sent.stream()
                    .anyMatch(fields -> fields[1].equals(retried.msgId())), "the retry keeps the official id");
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 120, timeUnit = TimeUnit.SECONDS)
    void ourProducerToOfficialPushConsumers(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-ours"));
        List<SendResult> tagA = new ArrayList<>();
        Map<String, String> retryMeId = new HashMap<>();

        Future<SendResult> sends = producer.start().map((SendResult) null);
        Map<String, Integer> seqByKey = new HashMap<>();
        for (int index = 0; index < COUNT; index++) {
            String key = "k" + (index % 2 + 1);
            int seq = seqByKey.merge(key, 1, Integer::sum) - 1;
            String tag = index % 3 == 2 ? "TagB" : "TagA";
            Message message = Message.of("InteropB", tag, body(key, seq, index % 10 == 9)).withKeys(key)
                .withProperty("color", "red");
            sends = sends.compose(previous -> producer.send(message, MessageQueueSelector.byHash(), key))
                .onSuccess(result -> {
                    if (tag.equals("TagA")) {
                        tagA.add(result);
                    }
                });
        }
        sends.compose(ordered -> producer.send(Message.of("InteropB", "TagA", body("delayed", 0, false))
                .withKeys("delayed").withDelayLevel(2)).onSuccess(tagA::add))
            .compose(delayed -> producer.send(Message.of("InteropB", "TagR", body("retry-me", 0, false))
                .withKeys("retry-me")).onSuccess(result -> retryMeId.put("id", result.msgId())))
            .compose(stored -> vertx.executeBlocking(() -> OfficialClientProcess.run(
                dir.resolve("official-orderly.log"), "consume", "namesrv=" + cluster.namesrvAddr(),
                "topic=InteropB", "group=CG-official-order", "expr=TagA", "mode=orderly", "expect=" + tagA.size(),
                "timeoutMs=60000")))
            .compose(orderlyLines -> vertx.executeBlocking(() -> OfficialClientProcess.run(
                    dir.resolve("official-retry.log"), "consume", "namesrv=" + cluster.namesrvAddr(),
                    "topic=InteropB", "group=CG-official-retry", "expr=TagR", "mode=concurrent", "expect=1",
                    "failFirstKey=retry-me", "timeoutMs=60000"))
                .map(retryLines -> List.of(orderlyLines, retryLines)))
            .eventually(producer::close)
            .onComplete(test.succeeding(runs -> test.verify(() -> {
                List<String[]> received = OfficialClientProcess.fields(runs.get(0), "RECEIVED");
                Set<String> expectedIds = new HashSet<>();
                tagA.forEach(result -> expectedIds.add(result.msgId()));
                Set<String> receivedIds = new HashSet<>();
                received.forEach(fields -> receivedIds.add(fields[1]));
                assertEquals(expectedIds, receivedIds, "the official consumer sees our ids, TagA only");
                assertInOrderPerKey(received.stream().map(fields -> fields[7]).toList());
                for (String[] fields : received) {
                    assertEquals("TagA", fields[3]);
                    assertEquals(fields[7].split(":")[0], fields[4], "keys");
                    String[] prefix = fields[7].split(":");
                    String expectedBody = new String(body(prefix[0], Integer.parseInt(prefix[1]),
                        !prefix[0].equals("delayed") && fields[8].equals(Integer.toString(body(prefix[0],
                            Integer.parseInt(prefix[1]), true).length))), StandardCharsets.UTF_8);
                    assertEquals(Integer.toString(expectedBody.hashCode()), fields[9], "body of " + fields[7]);
                    if (!prefix[0].equals("delayed")) {
                        assertEquals("red", fields[10]);
                    } else {
                        long waitedMs = Long.parseLong(fields[12]) - Long.parseLong(fields[11]);
                        assertTrue(waitedMs >= DELAY_MS, "delayed message came after " + waitedMs + " ms");
                    }
                }
                assertTrue(received.stream().anyMatch(fields -> Integer.parseInt(fields[8]) >= 6_000),
                    "a body we compressed arrives inflated at the official consumer");
                List<String[]> retried = OfficialClientProcess.fields(runs.get(1), "RECEIVED");
                assertTrue(retried.stream().anyMatch(fields -> fields[1].equals(retryMeId.get("id"))
                    && fields[5].equals("1") && fields[2].equals("InteropB")), "retry with reconsumeTimes 1");
                test.completeNow();
            })));
    }

    private static byte[] body(String key, int seq, boolean isLarge) {
        StringBuilder text = new StringBuilder(key + ":" + seq + "|");
        while (isLarge && text.length() < 6_000) {
            text.append("large body ");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String bodyPrefix(ReceivedMessage message) {
        String text = new String(message.body(), StandardCharsets.UTF_8);
        return text.substring(0, text.indexOf('|'));
    }

    /** Each "key:seq" key's sequence numbers must rise in delivery order. */
    private static void assertInOrderPerKey(List<String> prefixes) {
        Map<String, Integer> last = new HashMap<>();
        for (String prefix : prefixes) {
            String[] parts = prefix.split(":");
            int seq = Integer.parseInt(parts[1]);
            Integer previous = last.put(parts[0], seq);
            assertTrue(previous == null || previous < seq, "key " + parts[0] + ": " + seq + " after " + previous
                + " in " + prefixes);
        }
    }

    private static int countTagged(List<String[]> sent, String tag) {
        return (int) sent.stream().filter(fields -> fields[2].equals(tag)).count();
    }

    private static Set<String> idsOf(List<ReceivedMessage> messages) {
        Set<String> ids = new HashSet<>();
        messages.forEach(message -> ids.add(message.msgId()));
        return ids;
    }
}
