package io.vrmq.broker.schedule;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.message.MessageConst;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Delayed messages (DELAY property) against a real broker: held for their level's delay, kept over a restart. */
@ExtendWith(VertxExtension.class)
class ScheduleMessageIT {
    private static final String TOPIC = "DelayTopic";
    /** Level 2 is 2 s and level 4 is 3 s in HeldMessageBroker.SHORT_DELAY_LEVELS. */
    private static final int TWO_SECOND_LEVEL = 2;
    private static final long TWO_SECONDS_MS = 2_000;
    private static final int THREE_SECOND_LEVEL = 4;
    private static final long WAIT_MS = 15_000;

    /** A level-2 message is not in its topic before 2 s and is after, in send order, without DELAY. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void delayedMessageAppearsAfterItsLevelsDelayAndNotBefore(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long[] sentAt = new long[1];
        HeldMessageBroker.start(vertx, dir).compose(broker -> {
            sentAt[0] = System.currentTimeMillis();
            return sendDelayed(broker, TWO_SECOND_LEVEL, "d1", "d2", "d3")
                .compose(sent -> broker.pull(TOPIC, 0, 0))
                .compose(early -> {
                    test.verify(() -> assertTrue(early.isEmpty()
                        || early.get(0).storeTimestamp() >= sentAt[0] + TWO_SECONDS_MS, "delivered early"));
                    return broker.awaitMessages(TOPIC, 0, 3, WAIT_MS);
                })
                .map(found -> {
                    test.verify(() -> {
                        assertEquals(List.of("d1", "d2", "d3"), found.stream().map(HeldMessageBroker::bodyText)
                            .toList());
                        for (StoredMessage delivered : found) {
                            assertTrue(delivered.storeTimestamp() >= sentAt[0] + TWO_SECONDS_MS,
                                "delivered at " + delivered.storeTimestamp() + ", sent at " + sentAt[0]);
                            Map<String, String> properties = delivered.propertyMap();
                            assertNull(properties.get(MessageConst.DELAY_TIME_LEVEL));
                            assertEquals("TagD", properties.get(MessageConst.TAGS));
                            assertEquals(TOPIC, delivered.topic());
                        }
                    });
                    return broker;
                })
                .compose(HeldMessageBroker::stop);
        }).onComplete(test.succeedingThenComplete());
    }

    /**
     * Messages delivered before a clean restart are not delivered again, and those still held when it stopped are
     * delivered after it: each exactly once.
     */
    @Test
    @Timeout(value = 45, unit = TimeUnit.SECONDS)
    void delaysSurviveARestartWithoutLossOrDuplicate(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir).compose(broker -> sendDelayed(broker, 1, "early-1", "early-2")
            .compose(sent -> sendDelayed(broker, THREE_SECOND_LEVEL, "late-1", "late-2"))
            .compose(sent -> broker.awaitMessages(TOPIC, 0, 2, WAIT_MS))
            .compose(early -> broker.restart())
            .compose(restarted -> broker.awaitMessages(TOPIC, 0, 4, WAIT_MS))
            .compose(all -> broker.pause(1_500))
            .compose(settled -> broker.pull(TOPIC, 0, 0))
            .map(all -> {
                test.verify(() -> {
                    assertEquals(List.of("early-1", "early-2", "late-1", "late-2"),
                        all.stream().map(HeldMessageBroker::bodyText).toList());
                    String progress = Files.readString(dir.resolve("config/delayOffset.json"));
                    assertTrue(progress.contains("\"offsetTable\""), progress);
                });
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** A level above the configured ones is delivered with the last level's delay, as in RocketMQ. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void delayLevelAboveTheMaxIsClampedToTheMax(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        JsonObject threeLevels = new JsonObject().put("messageDelayLevel", "1s 1s 1s");
        HeldMessageBroker.start(vertx, dir, threeLevels).compose(broker -> sendDelayed(broker, 18, "clamped")
            .compose(sent -> broker.awaitMessages(TOPIC, 0, 1, WAIT_MS))
            .map(found -> {
                test.verify(() -> assertEquals("clamped", HeldMessageBroker.bodyText(found.get(0))));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<Void> sendDelayed(HeldMessageBroker broker, int level, String... bodies) {
        Future<Long> chain = Future.succeededFuture(0L);
        for (String body : bodies) {
            chain = chain.compose(previous -> broker.sendOk(TOPIC, Map.of(MessageConst.TAGS, "TagD",
                MessageConst.DELAY_TIME_LEVEL, Integer.toString(level)), body));
        }
        return chain.mapEmpty();
    }
}
