package io.vrmq.broker.retry;

import io.vertx.core.json.JsonObject;
import io.vertx.core.Vertx;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CONSUMER_SEND_MSG_BACK (36) against a real broker: retry topic after the delay, dead letters past the max. */
@ExtendWith(VertxExtension.class)
class SendBackIT {
    private static final String TOPIC = "OrderTopic";
    private static final String RETRY = "%RETRY%" + HeldMessageBroker.GROUP;
    private static final String DLQ = "%DLQ%" + HeldMessageBroker.GROUP;
    /** Level 3 (first retry) is 1 s in HeldMessageBroker.SHORT_DELAY_LEVELS. */
    private static final long FIRST_RETRY_DELAY_MS = 1_000;
    private static final long WAIT_MS = 10_000;

    /** A sent-back message reaches %RETRY%group after level 3's delay, with RETRY_TOPIC and one reconsume. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void sentBackMessageReachesTheRetryTopicAfterItsDelay(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        long[] sentBackAt = new long[1];
        HeldMessageBroker.start(vertx, dir).compose(broker -> broker
            .sendOk(TOPIC, Map.of(MessageConst.TAGS, "TagA", MessageConst.KEYS, "k1",
                MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "UNIQ-1"), "order 1")
            .compose(offset -> {
                sentBackAt[0] = System.currentTimeMillis();
                return broker.sendBack(offset, HeldMessageBroker.GROUP, 0, 16);
            })
            .map(HeldMessageBroker::requireSuccess)
            .compose(ok -> broker.pull(RETRY, 0, 0))
            .compose(early -> {
                test.verify(() -> assertTrue(early.isEmpty() || early.get(0).storeTimestamp()
                    >= sentBackAt[0] + FIRST_RETRY_DELAY_MS, "retry message visible before its delay"));
                return broker.awaitMessages(RETRY, 0, 1, WAIT_MS);
            })
            .map(found -> {
                test.verify(() -> {
                    assertEquals(1, found.size());
                    StoredMessage retry = found.get(0);
                    assertEquals(RETRY, retry.topic());
                    assertEquals("order 1", HeldMessageBroker.bodyText(retry));
                    assertEquals(1, retry.reconsumeTimes());
                    Map<String, String> properties = retry.propertyMap();
                    assertEquals(TOPIC, properties.get(MessageConst.RETRY_TOPIC));
                    assertEquals("TagA", properties.get(MessageConst.TAGS));
                    assertEquals("UNIQ-1", properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
                    assertNotNull(properties.get(MessageConst.ORIGIN_MESSAGE_ID));
                    assertNull(properties.get(MessageConst.DELAY_TIME_LEVEL));
                    assertTrue(retry.storeTimestamp() >= sentBackAt[0] + FIRST_RETRY_DELAY_MS,
                        "delivered at " + retry.storeTimestamp() + ", sent back at " + sentBackAt[0]);
                });
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** Sent back again once it reached the max, the retry message goes to %DLQ%group, keeping its original topic. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void messagePastTheMaxReconsumeTimesGoesToTheDeadLetterTopic(Vertx vertx, VertxTestContext test,
                                                                  @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir).compose(broker -> broker
            .sendOk(TOPIC, Map.of(MessageConst.TAGS, "TagA"), "poison")
            .compose(offset -> broker.sendBack(offset, HeldMessageBroker.GROUP, 0, 1))
            .map(HeldMessageBroker::requireSuccess)
            .compose(ok -> broker.awaitMessages(RETRY, 0, 1, WAIT_MS))
            .compose(retries -> broker.sendBack(retries.get(0).commitLogOffset(), HeldMessageBroker.GROUP, 0, 1))
            .map(HeldMessageBroker::requireSuccess)
            .compose(ok -> broker.awaitMessages(DLQ, 0, 1, WAIT_MS))
            .map(dead -> {
                test.verify(() -> {
                    StoredMessage letter = dead.get(0);
                    assertEquals(DLQ, letter.topic());
                    assertEquals("poison", HeldMessageBroker.bodyText(letter));
                    assertEquals(2, letter.reconsumeTimes());
                    assertEquals(TOPIC, letter.propertyMap().get(MessageConst.RETRY_TOPIC));
                    assertEquals(TOPIC, letter.propertyMap().get(MessageConst.DLQ_ORIGIN_TOPIC));
                });
                return broker;
            })
            .compose(broker1 -> broker.pull(RETRY, 0, 0))
            .map(retries -> {
                test.verify(() -> assertEquals(1, retries.size(), "the dead letter must not also be retried"));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** A negative delay level sends the message straight to the dead-letter topic, with no delay. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void negativeDelayLevelGoesStraightToTheDeadLetterTopic(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir).compose(broker -> broker
            .sendOk(TOPIC, Map.of(), "straight to DLQ")
            .compose(offset -> broker.sendBack(offset, HeldMessageBroker.GROUP, -1, 16))
            .map(HeldMessageBroker::requireSuccess)
            .compose(ok -> broker.awaitMessages(DLQ, 0, 1, WAIT_MS))
            .map(dead -> {
                test.verify(() -> {
                    assertEquals(1, dead.get(0).reconsumeTimes());
                    assertEquals(TOPIC, dead.get(0).propertyMap().get(MessageConst.RETRY_TOPIC));
                });
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** Without a limit in the request, the group's retryMaxTimes applies (here 0: straight to the DLQ). */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void groupsRetryMaxTimesAppliesWhenTheRequestHasNoLimit(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        JsonObject noRetries = new JsonObject().put("maxReconsumeTimes", 0);
        HeldMessageBroker.start(vertx, dir, noRetries).compose(broker -> broker
            .sendOk(TOPIC, Map.of(), "no retries for this group")
            .compose(offset -> broker.sendBack(offset, HeldMessageBroker.GROUP, 0, -1))
            .map(HeldMessageBroker::requireSuccess)
            .compose(ok -> broker.awaitMessages(DLQ, 0, 1, WAIT_MS))
            .map(dead -> {
                test.verify(() -> assertEquals("no retries for this group", HeldMessageBroker.bodyText(dead.get(0))));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** An offset that holds no message gets SYSTEM_ERROR with RocketMQ's remark; the broker goes on. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void unknownOffsetIsASystemError(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir).compose(broker -> broker
            .sendOk(TOPIC, Map.of(), "m")
            .compose(offset -> broker.sendBack(offset + 3_000_000, HeldMessageBroker.GROUP, 0, 16))
            .map(response -> {
                test.verify(() -> {
                    assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
                    assertTrue(response.remark().startsWith("look message by offset failed"), response.remark());
                });
                return broker;
            })
            .compose(ok -> broker.sendOk(TOPIC, Map.of(), "still serving"))
            .map(offset -> broker)
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** With autoCreateSubscriptionGroup off, an unknown group gets SUBSCRIPTION_GROUP_NOT_EXIST. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void unknownGroupIsRefused(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        JsonObject noAutoGroups = new JsonObject().put("autoCreateSubscriptionGroup", false);
        HeldMessageBroker.start(vertx, dir, noAutoGroups).compose(broker -> broker
            .sendOk(TOPIC, Map.of(), "m")
            .compose(offset -> broker.sendBack(offset, "NoSuchGroup", 0, 16))
            .map(response -> {
                test.verify(() -> assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, response.code(),
                    response.remark()));
                return broker;
            })
            .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }
}
