package io.vrmq.broker.recall;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.schedule.HeldMessageBroker;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.broker.timer.TimerRouting;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * RECALL_MESSAGE against a real broker: a recalled timer message is never delivered while its sibling of the same
 * second is (also across a restart), and every refusal has RocketMQ 5.5.0's code and remark and stores nothing.
 */
@ExtendWith(VertxExtension.class)
class RecallMessageIT {
    private static final String TOPIC = "RecallTopic";
    private static final long WAIT_MS = 15_000;
    private static final JsonObject ENABLED = new JsonObject().put("recallMessageEnable", true);

    /** Two timer messages of one second; the first recalled: only the second arrives (same delivery step). */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aRecalledTimerMessageIsNeverDeliveredWhileItsSiblingIs(Vertx vertx, VertxTestContext test,
                                                                 @TempDir Path dir) {
        long deliverAt = System.currentTimeMillis() + 2_500;
        HeldMessageBroker.start(vertx, dir, ENABLED).compose(broker -> sendTimer(broker, "A", deliverAt)
            .compose(recalledSend -> sendTimer(broker, "B", deliverAt).compose(siblingSend -> {
                String handle = recalledSend.ext("recallHandle");
                test.verify(() -> {
                    RecallHandle decoded = RecallHandle.decode(handle);
                    assertEquals(TOPIC, decoded.topic());
                    assertEquals("broker-a", decoded.brokerName());
                    assertEquals("A", decoded.messageId());
                    assertEquals(deliverAt / 1_000 * 1_000 + 1, decoded.timestampMs());
                    assertNotNull(siblingSend.ext("recallHandle"));
                });
                return recall(broker, TOPIC, handle);
            }))
            .compose(recalled -> {
                test.verify(() -> {
                    assertEquals(ResponseCode.SUCCESS, recalled.code(), recalled.remark());
                    assertEquals("A", recalled.ext("msgId"));
                    assertEquals("DefaultRegion", recalled.ext(MessageConst.MSG_REGION));
                });
                return broker.awaitMessages(TOPIC, 0, 1, WAIT_MS);
            })
            .map(delivered -> {
                test.verify(() -> assertEquals(List.of("B"), uniqKeys(delivered)));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** The delete record is rebuilt from the timer queue after a clean restart: the recall still holds. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aRecallSurvivesARestart(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long deliverAt = System.currentTimeMillis() + 3_500;
        HeldMessageBroker.start(vertx, dir, ENABLED).compose(broker -> sendTimer(broker, "A", deliverAt)
            .compose(recalledSend -> sendTimer(broker, "B", deliverAt)
                .compose(siblingSend -> recall(broker, TOPIC, recalledSend.ext("recallHandle"))))
            .map(HeldMessageBroker::requireSuccess)
            .compose(recalled -> broker.restart())
            .compose(restarted -> broker.awaitMessages(TOPIC, 0, 1, WAIT_MS))
            .map(delivered -> {
                test.verify(() -> assertEquals(List.of("B"), uniqKeys(delivered)));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** recallMessageEnable is off by default, as in RocketMQ: NO_PERMISSION, while sends still carry handles. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void recallIsForbiddenByDefault(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir).compose(broker -> sendTimer(broker, "A",
                System.currentTimeMillis() + 60_000)
            .compose(sent -> recall(broker, TOPIC, sent.ext("recallHandle")))
            .map(refused -> {
                test.verify(() -> {
                    assertEquals(ResponseCode.NO_PERMISSION, refused.code());
                    assertEquals("recall failed, operation is forbidden", refused.remark());
                    assertEquals("DefaultRegion", refused.ext(MessageConst.MSG_REGION));
                });
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * Unknown topic → TOPIC_NOT_EXIST; a handle that does not decode, of another topic, of another broker, or whose
     * time is past (the message was delivered) → ILLEGAL_OPERATION; none stores anything. Messages that are no timer
     * messages get no handle.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void refusalsHaveRocketMqsCodesAndStoreNothing(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long future = System.currentTimeMillis() + 60_000;
        String pastHandle = RecallHandle.build(TOPIC, "broker-a", Long.toString(System.currentTimeMillis() - 1), "P");
        HeldMessageBroker.start(vertx, dir, ENABLED).compose(broker -> sendTimer(broker, "A", future)
            .compose(sent -> broker.send(TOPIC, 0, Map.of(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "N"), "now")
                .compose(plain -> broker.send(TOPIC, 0, Map.of(MessageConst.DELAY_TIME_LEVEL, "2"), "level"))
                .map(level -> {
                    test.verify(() -> assertNull(level.ext("recallHandle"), "a delay level message has no handle"));
                    return sent;
                }))
            .compose(sent -> timerQueueSizeAtLeast(vertx, broker, 1, 100).compose(sizeBefore -> expectRefusals(broker,
                test, List.of(
                    new Refusal(TOPIC + "Unknown", sent.ext("recallHandle"), ResponseCode.TOPIC_NOT_EXIST,
                        "recall failed, the topic[" + TOPIC + "Unknown] not exist"),
                    new Refusal(TOPIC, "@@not a handle@@", ResponseCode.ILLEGAL_OPERATION, "recall handle is invalid"),
                    new Refusal(TOPIC, RecallHandle.build("OtherTopic", "broker-a", Long.toString(future), "A"),
                        ResponseCode.ILLEGAL_OPERATION, "recall failed, topic not match"),
                    new Refusal(TOPIC, RecallHandle.build(TOPIC, "broker-b", Long.toString(future), "A"),
                        ResponseCode.ILLEGAL_OPERATION, "recall failed, broker service not available"),
                    new Refusal(TOPIC, pastHandle, ResponseCode.ILLEGAL_OPERATION, "recall failed, timestamp invalid")))
                .compose(checked -> timerQueueSize(broker))
                .map(sizeAfter -> {
                    test.verify(() -> assertEquals(sizeBefore, sizeAfter, "a refusal stored a delete record"));
                    return broker;
                })))
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * With timerMaxHeldDeleteKeys 1, once the timer holds one recalled key every further recall is SYSTEM_BUSY and
     * stores nothing (the count trails the recalls by a scan, so recalls are repeated until it is reached).
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void recallsBeyondTimerMaxHeldDeleteKeysAreBusy(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long future = System.currentTimeMillis() + 60_000;
        HeldMessageBroker.start(vertx, dir, ENABLED.copy().put("timerMaxHeldDeleteKeys", 1))
            .compose(broker -> sendTimer(broker, "A", future)
                .compose(sent -> broker.poll(() -> recall(broker, TOPIC, sent.ext("recallHandle")),
                        answer -> answer.code() != ResponseCode.SUCCESS, WAIT_MS)
                    .compose(busy -> timerQueueSize(broker).compose(sizeBefore -> recall(broker, TOPIC,
                            sent.ext("recallHandle"))
                        .compose(again -> timerQueueSize(broker).map(sizeAfter -> {
                            test.verify(() -> {
                                assertEquals(ResponseCode.SYSTEM_BUSY, busy.code(), busy.remark());
                                assertEquals("recall is under flow control: 1 recalled timer messages held, "
                                    + "timerMaxHeldDeleteKeys is 1", busy.remark());
                                assertEquals("DefaultRegion", busy.ext(MessageConst.MSG_REGION));
                                assertEquals(ResponseCode.SYSTEM_BUSY, again.code());
                                assertEquals(sizeBefore, sizeAfter, "a busy recall stored a delete record");
                            });
                            return broker;
                        })))))
                .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    private record Refusal(String topic, String handle, int code, String remark) {
    }

    private static Future<Void> expectRefusals(HeldMessageBroker broker, VertxTestContext test, List<Refusal> all) {
        Future<Void> chain = Future.succeededFuture();
        for (Refusal expected : all) {
            chain = chain.compose(previous -> recall(broker, expected.topic(), expected.handle())).map(refused -> {
                test.verify(() -> {
                    assertEquals(expected.code(), refused.code(), expected.toString());
                    assertEquals(expected.remark(), refused.remark());
                    assertNull(refused.ext("msgId"));
                });
                return null;
            });
        }
        return chain;
    }

    private static Future<Integer> timerQueueSize(HeldMessageBroker broker) {
        return broker.pull(TimerRouting.TIMER_TOPIC, 0, 0).map(List::size);
    }

    /** The timer queue's size once it holds {@code atLeast} entries (the dispatcher runs behind the append). */
    private static Future<Integer> timerQueueSizeAtLeast(Vertx vertx, HeldMessageBroker broker, int atLeast,
                                                         int attemptsLeft) {
        return timerQueueSize(broker).compose(size -> size >= atLeast || attemptsLeft == 0
            ? Future.succeededFuture(size)
            : vertx.timer(50).compose(waited -> timerQueueSizeAtLeast(vertx, broker, atLeast, attemptsLeft - 1)));
    }

    private static Future<RemotingCommand> sendTimer(HeldMessageBroker broker, String uniqKey, long deliverAtMs) {
        return broker.send(TOPIC, 0, Map.of(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, uniqKey,
            MessageConst.TIMER_DELIVER_MS, Long.toString(deliverAtMs)), uniqKey).map(HeldMessageBroker::requireSuccess);
    }

    /** RECALL_MESSAGE with the header the official 5.5.0 producer sends. */
    private static Future<RemotingCommand> recall(HeldMessageBroker broker, String topic, String handle) {
        Map<String, String> header = new HashMap<>();
        header.put("producerGroup", "PG");
        header.put("topic", topic);
        header.put("recallHandle", handle);
        header.put("bname", "broker-a");
        return broker.invoke(RequestCode.RECALL_MESSAGE, header, null);
    }

    private static List<String> uniqKeys(List<StoredMessage> delivered) {
        return delivered.stream().map(message -> message.propertyMap()
            .get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX)).toList();
    }
}
