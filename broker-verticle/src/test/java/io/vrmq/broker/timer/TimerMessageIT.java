package io.vrmq.broker.timer;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.schedule.HeldMessageBroker;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Timer messages (5.x deliver time) against a real broker. */
@ExtendWith(VertxExtension.class)
class TimerMessageIT {
    private static final String TOPIC = "TimerTopic";
    private static final long WAIT_MS = 15_000;

    /** A message with TIMER_DELIVER_MS arrives in its topic at that time, not before, without REAL_TOPIC. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void timerMessageArrivesAtItsDeliverTimeAndNotBefore(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long deliverAt = System.currentTimeMillis() + 2_500;
        HeldMessageBroker.start(vertx, dir).compose(broker -> broker
            .sendOk(TOPIC, Map.of(MessageConst.TAGS, "TagT", MessageConst.TIMER_DELIVER_MS, Long.toString(deliverAt)),
                "at a time")
            .compose(offset -> broker.pull(TOPIC, 0, 0))
            .compose(early -> {
                test.verify(() -> assertTrue(early.isEmpty() || early.get(0).storeTimestamp() >= deliverAt,
                    "delivered early"));
                return broker.awaitMessages(TOPIC, 0, 1, WAIT_MS);
            })
            .map(found -> {
                test.verify(() -> {
                    StoredMessage delivered = found.get(0);
                    assertEquals("at a time", HeldMessageBroker.bodyText(delivered));
                    assertTrue(delivered.storeTimestamp() >= deliverAt,
                        "delivered at " + delivered.storeTimestamp() + ", asked for " + deliverAt);
                    Map<String, String> properties = delivered.propertyMap();
                    assertNotNull(properties.get(MessageConst.TIMER_OUT_MS));
                    assertNull(properties.get(MessageConst.REAL_TOPIC));
                    assertEquals("TagT", properties.get(MessageConst.TAGS));
                });
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** TIMER_DELAY_SEC is relative to the send; a deliver time already past is stored at once. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void relativeDelayIsHeldAndPastDeliverTimeIsNot(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long[] sentAt = new long[1];
        HeldMessageBroker.start(vertx, dir).compose(broker -> {
            sentAt[0] = System.currentTimeMillis();
            return broker.sendOk(TOPIC, Map.of(MessageConst.TIMER_DELAY_SEC, "2"), "relative")
                .compose(offset -> broker.sendOk(TOPIC, Map.of(MessageConst.TIMER_DELIVER_MS, "1000"), "past"))
                .compose(offset -> broker.awaitMessages(TOPIC, 0, 2, WAIT_MS))
                .map(found -> {
                    test.verify(() -> {
                        assertEquals(List.of("past", "relative"), found.stream().map(HeldMessageBroker::bodyText)
                            .toList());
                        assertTrue(found.get(1).storeTimestamp() >= sentAt[0] + 2_000);
                    });
                    return broker;
                })
                .compose(HeldMessageBroker::stop);
        }).onComplete(test.succeedingThenComplete());
    }

    /** Timer messages arrive in deliver-time order, not in send order. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void timersArriveInDeliverTimeOrder(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long now = System.currentTimeMillis();
        HeldMessageBroker.start(vertx, dir).compose(broker -> sendAt(broker, now + 4_000, "third")
            .compose(sent -> sendAt(broker, now + 1_500, "first"))
            .compose(sent -> sendAt(broker, now + 2_800, "second"))
            .compose(sent -> broker.awaitMessages(TOPIC, 0, 3, WAIT_MS))
            .map(found -> {
                test.verify(() -> assertEquals(List.of("first", "second", "third"),
                    found.stream().map(HeldMessageBroker::bodyText).toList()));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** A deliver time beyond timerMaxDelaySec (3 days) is MESSAGE_ILLEGAL with RocketMQ's remark. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void deliverTimeBeyondTheMaxDelayIsIllegal(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir).compose(broker -> broker
            .send(TOPIC, 0, Map.of(MessageConst.TIMER_DELAY_SEC, Long.toString(4 * 24 * 3_600)), "too late")
            .compose(tooLate -> broker.send(TOPIC, 0, Map.of(MessageConst.TIMER_DELIVER_MS, "soon"), "bad")
                .map(bad -> {
                    test.verify(() -> {
                        assertEquals(ResponseCode.MESSAGE_ILLEGAL, tooLate.code());
                        assertTrue(tooLate.remark().startsWith("timer message illegal"), tooLate.remark());
                        assertEquals(ResponseCode.MESSAGE_ILLEGAL, bad.code());
                    });
                    return broker;
                }))
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** With a delay level also set, the TIMER_* properties are dropped and the level's delay applies. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void delayLevelWinsOverDeliverTime(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long farAway = System.currentTimeMillis() + 60_000;
        HeldMessageBroker.start(vertx, dir).compose(broker -> broker
            .sendOk(TOPIC, Map.of(MessageConst.DELAY_TIME_LEVEL, "1",
                MessageConst.TIMER_DELIVER_MS, Long.toString(farAway)), "level wins")
            .compose(offset -> broker.awaitMessages(TOPIC, 0, 1, WAIT_MS))
            .map(found -> {
                test.verify(() -> {
                    Map<String, String> properties = found.get(0).propertyMap();
                    assertNull(properties.get(MessageConst.TIMER_DELIVER_MS));
                    assertNull(properties.get(MessageConst.TIMER_OUT_MS));
                });
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * Timer messages delivered before a clean restart are not delivered again; those still held are delivered after
     * it: each exactly once.
     */
    @Test
    @Timeout(value = 45, unit = TimeUnit.SECONDS)
    void timersSurviveARestartWithoutLossOrDuplicate(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long now = System.currentTimeMillis();
        HeldMessageBroker.start(vertx, dir).compose(broker -> sendAt(broker, now + 1_200, "early-1", "early-2")
            .compose(sent -> sendAt(broker, now + 5_000, "late-1", "late-2"))
            .compose(sent -> broker.awaitMessages(TOPIC, 0, 2, WAIT_MS))
            .compose(early -> broker.restart())
            .compose(restarted -> broker.awaitMessages(TOPIC, 0, 4, WAIT_MS))
            .compose(all -> broker.pause(1_500))
            .compose(settled -> broker.pull(TOPIC, 0, 0))
            .map(all -> {
                test.verify(() -> assertEquals(List.of("early-1", "early-2", "late-1", "late-2"),
                    all.stream().map(HeldMessageBroker::bodyText).toList()));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<Void> sendAt(HeldMessageBroker broker, long deliverMs, String... bodies) {
        Future<Long> chain = Future.succeededFuture(0L);
        for (String body : bodies) {
            chain = chain.compose(previous -> broker.sendOk(TOPIC, Map.of(MessageConst.TIMER_DELIVER_MS,
                Long.toString(deliverMs)), body));
        }
        return chain.mapEmpty();
    }

    /**
     * Flow control: with timerCongestNumEachSlot 2, timer sends for one second are refused with SYSTEM_ERROR once the
     * timer holds twice that for it, while a timer for another second is still taken.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void timerSendsForACongestedSecondAreRefusedWhileOtherSecondsAreTaken(Vertx vertx, VertxTestContext test,
                                                                          @TempDir Path dir) {
        long congestedSecond = (System.currentTimeMillis() / 1_000 + 600) * 1_000 + 500;
        Map<String, String> congested = Map.of(MessageConst.TIMER_DELIVER_MS, Long.toString(congestedSecond));
        Map<String, String> other = Map.of(MessageConst.TIMER_DELIVER_MS, Long.toString(congestedSecond + 5_000));
        HeldMessageBroker.start(vertx, dir, new JsonObject().put("timerCongestNumEachSlot", 2))
            .compose(broker -> broker.poll(() -> broker.send(TOPIC, 0, congested, "busy"),
                    response -> response.code() != ResponseCode.SUCCESS, WAIT_MS)
                .compose(refused -> {
                    test.verify(() -> {
                        assertEquals(ResponseCode.SYSTEM_ERROR, refused.code(), refused.remark());
                        assertTrue(refused.remark().contains("timer message is under flow control"),
                            refused.remark());
                    });
                    return broker.send(TOPIC, 0, other, "another second");
                })
                .map(taken -> {
                    test.verify(() -> assertEquals(ResponseCode.SUCCESS, taken.code(), taken.remark()));
                    return broker;
                })
                .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }
}
