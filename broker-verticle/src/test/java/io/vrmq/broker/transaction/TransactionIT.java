package io.vrmq.broker.transaction;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vrmq.broker.transaction.TransactionTestBroker.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Half messages, END_TRANSACTION and the check service against a real broker, with requests as the client sends. */
@ExtendWith(VertxExtension.class)
class TransactionIT {
    private static final int REAL_QUEUE_ID = 2;
    private static final long WAIT_MS = 10_000;
    /** Checks never run in tests that do not want them. */
    private static final JsonObject NO_CHECKS = new JsonObject().put("transactionCheckInterval", 600_000);
    /** A check run every 200 ms; a half message is due 300 ms after it was born. */
    private static final JsonObject FAST_CHECKS = new JsonObject().put("transactionCheckInterval", 200)
        .put("transactionTimeOut", 300);

    /**
     * A half message is answered SEND_OK with its real queue, is stored in the half topic with REAL_TOPIC/REAL_QID,
     * and is not in its topic; its commit stores it there intact and writes the op record "offset," tagged "d".
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void halfMessageIsHiddenUntilItsCommitStoresItInTheRealQueue(Vertx vertx, VertxTestContext test,
                                                                 @TempDir Path dir) {
        TransactionTestBroker.start(vertx, dir, NO_CHECKS).compose(broker -> broker.sendHalf("tx-1", Map.of())
            .compose(sent -> {
                test.verify(() -> {
                    assertEquals(REAL_QUEUE_ID, sent.queueId());
                    assertEquals(0, sent.queueOffset());
                    assertEquals(sent.uniqKey(), sent.transactionId());
                });
                return broker.awaitMessages(TransactionNames.HALF_TOPIC, 0, 1, WAIT_MS)
                    .compose(halves -> {
                        test.verify(() -> assertHalf(halves.get(0)));
                        return broker.pull(TOPIC, REAL_QUEUE_ID, 0);
                    })
                    .compose(early -> {
                        test.verify(() -> assertTrue(early.isEmpty(), "visible before its commit: " + early));
                        return broker.end(sent, TransactionSysFlag.COMMIT_TYPE);
                    })
                    .map(TransactionIT::requireSuccess)
                    .compose(ended -> broker.awaitMessages(TOPIC, REAL_QUEUE_ID, 1, WAIT_MS))
                    .compose(committed -> {
                        test.verify(() -> assertCommitted(committed.get(0), sent));
                        return broker.awaitMessages(TransactionNames.OP_TOPIC, 0, 1, WAIT_MS);
                    })
                    .map(ops -> {
                        test.verify(() -> assertOpRecordFor(ops.get(0), 0));
                        return broker;
                    });
            })
            .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** A rollback writes the op record and nothing else: the message never reaches its topic. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void rollbackWritesOnlyTheOpRecord(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        TransactionTestBroker.start(vertx, dir, NO_CHECKS).compose(broker -> broker.sendHalf("tx-rb", Map.of())
            .compose(sent -> broker.end(sent, TransactionSysFlag.ROLLBACK_TYPE))
            .map(TransactionIT::requireSuccess)
            .compose(ended -> broker.awaitMessages(TransactionNames.OP_TOPIC, 0, 1, WAIT_MS))
            .compose(ops -> {
                test.verify(() -> assertOpRecordFor(ops.get(0), 0));
                return broker.pull(TOPIC, REAL_QUEUE_ID, 0);
            })
            .map(delivered -> {
                test.verify(() -> assertTrue(delivered.isEmpty(), "rolled back but delivered: " + delivered));
                return broker;
            })
            .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** An end naming another producer group, half queue offset or no half message is refused as RocketMQ does. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void endTransactionThatDoesNotMatchItsHalfMessageIsRefused(Vertx vertx, VertxTestContext test,
                                                              @TempDir Path dir) {
        TransactionTestBroker.start(vertx, dir, NO_CHECKS).compose(broker -> broker.sendHalf("tx-bad", Map.of())
            .compose(sent -> broker.endTransaction("OtherGroup", sent.queueOffset(), sent.commitLogOffset(),
                    TransactionSysFlag.COMMIT_TYPE, false, sent.uniqKey())
                .compose(wrongGroup -> {
                    test.verify(() -> assertRefused(wrongGroup, "The producer group wrong"));
                    return broker.endTransaction(TransactionTestBroker.GROUP, sent.queueOffset() + 5,
                        sent.commitLogOffset(), TransactionSysFlag.COMMIT_TYPE, false, sent.uniqKey());
                })
                .compose(wrongOffset -> {
                    test.verify(() -> assertRefused(wrongOffset, "The transaction state table offset wrong"));
                    return broker.endTransaction(TransactionTestBroker.GROUP, sent.queueOffset(),
                        sent.commitLogOffset() + 1, TransactionSysFlag.COMMIT_TYPE, false, sent.uniqKey());
                })
                .compose(noHalf -> {
                    test.verify(() -> assertRefused(noHalf, "Find prepared transaction message failed"));
                    return broker.pause(300).compose(settled -> broker.pull(TOPIC, REAL_QUEUE_ID, 0));
                })
                .map(delivered -> {
                    test.verify(() -> assertTrue(delivered.isEmpty(), "delivered after refusals: " + delivered));
                    return broker;
                }))
            .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * A half message left open past transactionTimeOut is checked: the producer gets CHECK_TRANSACTION_STATE with the
     * message in stored form under its real topic, answers commit from the check, and the message is delivered.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void openTransactionIsCheckedAndCommittedFromTheCheck(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        TransactionTestBroker.start(vertx, dir, FAST_CHECKS).compose(broker -> broker.heartbeat()
            .compose(registered -> broker.sendHalf("tx-check", Map.of()))
            .compose(sent -> broker.awaitChecks(1, WAIT_MS).compose(checks -> {
                RemotingCommand check = checks.get(0);
                StoredMessage asked = StoredMessage.decode(ByteBuffer.wrap(check.body().getBytes()));
                test.verify(() -> assertCheck(check, asked, sent));
                return broker.endTransaction(TransactionTestBroker.GROUP,
                    Long.parseLong(check.ext("tranStateTableOffset")), Long.parseLong(check.ext("commitLogOffset")),
                    TransactionSysFlag.COMMIT_TYPE, true, check.ext("msgId"));
            }))
            .map(TransactionIT::requireSuccess)
            .compose(ended -> broker.awaitMessages(TOPIC, REAL_QUEUE_ID, 1, WAIT_MS))
            .compose(committed -> {
                test.verify(() -> {
                    assertEquals("tx-check", TransactionTestBroker.bodyText(committed.get(0)));
                    assertEquals("1", committed.get(0).propertyMap().get(TransactionNames.CHECK_TIMES));
                });
                int checksSoFar = broker.checks().size();
                return broker.pause(1_000).map(settled -> {
                    test.verify(() -> assertEquals(checksSoFar, broker.checks().size(),
                        "checked again after its commit"));
                    return broker;
                });
            })
            .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** A producer that never answers is checked transactionCheckMax times, then its message is discarded. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void unansweredTransactionIsDiscardedAfterTransactionCheckMaxChecks(Vertx vertx, VertxTestContext test,
                                                                       @TempDir Path dir) {
        JsonObject twoChecks = FAST_CHECKS.copy().put("transactionCheckMax", 2);
        TransactionTestBroker.start(vertx, dir, twoChecks).compose(broker -> broker.heartbeat()
            .compose(registered -> broker.sendHalf("tx-lost", Map.of()))
            .compose(sent -> broker.awaitMessages(TransactionNames.CHECK_MAX_TIME_TOPIC, 0, 1, WAIT_MS))
            .compose(discarded -> {
                test.verify(() -> {
                    assertEquals(2, broker.checks().size(), "checks before the discard");
                    assertEquals("tx-lost", TransactionTestBroker.bodyText(discarded.get(0)));
                    assertEquals("2", discarded.get(0).propertyMap().get(TransactionNames.CHECK_TIMES));
                });
                return broker.pause(800).compose(settled -> broker.pull(TOPIC, REAL_QUEUE_ID, 0));
            })
            .map(delivered -> {
                test.verify(() -> {
                    assertTrue(delivered.isEmpty(), "a discarded transaction was delivered: " + delivered);
                    assertEquals(2, broker.checks().size(), "checked after the discard");
                });
                return broker;
            })
            .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * The check progress (CID_RMQ_SYS_TRANS's offset on the half topic) survives a clean restart; a transaction
     * committed before it is not checked after it, and one still open is.
     */
    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void checkProgressSurvivesARestart(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        TransactionTestBroker.start(vertx, dir, FAST_CHECKS.copy().put("transactionTimeOut", 2_000))
            .compose(broker -> broker.sendHalf("tx-done", Map.of())
                .compose(done -> broker.end(done, TransactionSysFlag.COMMIT_TYPE))
                .map(TransactionIT::requireSuccess)
                .compose(ended -> broker.sendHalf("tx-open", Map.of()))
                .compose(open -> broker.poll(() -> broker.checkProgress(TransactionNames.HALF_TOPIC),
                    progress -> progress >= 1, WAIT_MS))
                .compose(passedTheCommitted -> broker.restart())
                .compose(restarted -> broker.checkProgress(TransactionNames.HALF_TOPIC))
                .compose(progress -> {
                    test.verify(() -> assertTrue(progress >= 1, "progress after the restart: " + progress));
                    return broker.heartbeat();
                })
                .compose(registered -> broker.awaitChecks(1, WAIT_MS))
                .compose(checks -> broker.pause(800).map(settled -> {
                    test.verify(() -> {
                        List<String> asked = broker.checks().stream().map(TransactionIT::checkedBody).toList();
                        assertFalse(asked.contains("tx-done"), "a committed transaction was checked: " + asked);
                        assertTrue(asked.contains("tx-open"), "the open transaction was not checked: " + asked);
                    });
                    return broker;
                }))
                .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * A half message with its own CHECK_IMMUNITY_TIME_IN_SECONDS is not checked while it is immune and holds the
     * progress, but messages after it are still checked, each once per run (the copy a check stores counts one more
     * check); its producer may still end it itself within that time.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void messagesAfterAnImmuneOneAreCheckedOncePerRun(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        TransactionTestBroker.start(vertx, dir, FAST_CHECKS).compose(broker -> broker.heartbeat()
            .compose(registered -> broker.sendHalf("tx-immune",
                Map.of(TransactionNames.CHECK_IMMUNITY_TIME_IN_SECONDS, "60")))
            .compose(immune -> broker.sendHalf("tx-after", Map.of())
                .compose(after -> broker.awaitChecks(3, WAIT_MS))
                .compose(checks -> {
                    test.verify(() -> {
                        List<String> asked = broker.checks().stream().map(TransactionIT::checkedBody).toList();
                        List<String> checkTimes = broker.checks().stream().map(TransactionIT::checkTimes).toList();
                        assertFalse(asked.contains("tx-immune"), "checked while immune: " + asked);
                        assertEquals(checkTimes.stream().distinct().toList(), checkTimes, "checked twice per run");
                    });
                    return broker.checkProgress(TransactionNames.HALF_TOPIC);
                })
                .compose(progress -> {
                    test.verify(() -> assertEquals(immune.queueOffset(), progress, "progress passed the immune"));
                    return broker.end(immune, TransactionSysFlag.COMMIT_TYPE);
                }))
            .map(TransactionIT::requireSuccess)
            .compose(ended -> broker.awaitMessages(TOPIC, REAL_QUEUE_ID, 1, WAIT_MS))
            .map(delivered -> broker)
            .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    /** A slave refuses END_TRANSACTION with SLAVE_NOT_AVAILABLE, as RocketMQ's does: transactions end at the master. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void slaveRefusesEndTransaction(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        JsonObject slave = NO_CHECKS.copy().put("brokerRole", "SLAVE").put("brokerId", 1)
            .put("haMasterAddress", "127.0.0.1:1");
        TransactionTestBroker.start(vertx, dir, slave).compose(broker -> broker.endTransaction(
                TransactionTestBroker.GROUP, 0, 0, TransactionSysFlag.COMMIT_TYPE, false, "UNIQ")
            .map(refused -> {
                test.verify(() -> assertEquals(ResponseCode.SLAVE_NOT_AVAILABLE, refused.code(), refused.remark()));
                return broker;
            })
            .compose(TransactionTestBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    private static String checkTimes(RemotingCommand check) {
        StoredMessage message = StoredMessage.decode(ByteBuffer.wrap(check.body().getBytes()));
        return message.propertyMap().get(TransactionNames.CHECK_TIMES);
    }

    private static String checkedBody(RemotingCommand check) {
        StoredMessage message = StoredMessage.decode(ByteBuffer.wrap(check.body().getBytes()));
        return TransactionTestBroker.bodyText(message);
    }

    private static RemotingCommand requireSuccess(RemotingCommand response) {
        assertEquals(ResponseCode.SUCCESS, response.code(), String.valueOf(response.remark()));
        return response;
    }

    private static void assertRefused(RemotingCommand response, String remark) {
        assertEquals(ResponseCode.SYSTEM_ERROR, response.code(), response.remark());
        assertEquals(remark, response.remark());
    }

    private static void assertHalf(StoredMessage half) {
        Map<String, String> properties = half.propertyMap();
        assertEquals(TransactionNames.HALF_TOPIC, half.topic());
        assertEquals(0, half.queueId());
        assertEquals(TransactionSysFlag.NOT_TYPE, TransactionSysFlag.typeOf(half.sysFlag()));
        assertEquals(TOPIC, properties.get(MessageConst.REAL_TOPIC));
        assertEquals(Integer.toString(REAL_QUEUE_ID), properties.get(MessageConst.REAL_QUEUE_ID));
        assertEquals(properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX),
            properties.get(MessageConst.TRANSACTION_ID));
    }

    private static void assertCommitted(StoredMessage committed, TransactionTestBroker.SentHalf sent) {
        Map<String, String> properties = committed.propertyMap();
        assertEquals(TOPIC, committed.topic());
        assertEquals(REAL_QUEUE_ID, committed.queueId());
        assertEquals("tx-1", TransactionTestBroker.bodyText(committed));
        assertEquals("tx-1-key", properties.get(MessageConst.KEYS));
        assertEquals("TagTx", properties.get(MessageConst.TAGS));
        assertEquals(sent.uniqKey(), properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
        assertEquals("true", properties.get(MessageConst.TRANSACTION_PREPARED));
        assertNull(properties.get(MessageConst.REAL_TOPIC));
        assertNull(properties.get(MessageConst.REAL_QUEUE_ID));
        assertEquals(TransactionSysFlag.COMMIT_TYPE, TransactionSysFlag.typeOf(committed.sysFlag()));
    }

    private static void assertOpRecordFor(StoredMessage op, long halfQueueOffset) {
        assertEquals(TransactionNames.OP_TOPIC, op.topic());
        assertEquals(TransactionNames.REMOVE_TAG, op.propertyMap().get(MessageConst.TAGS));
        assertEquals(halfQueueOffset + ",", new String(op.body(), StandardCharsets.UTF_8));
    }

    private static void assertCheck(RemotingCommand check, StoredMessage asked,
                                    TransactionTestBroker.SentHalf sent) {
        assertTrue(check.isOneway(), "a check is oneway");
        assertEquals(TransactionNames.HALF_TOPIC, check.ext("topic"));
        assertEquals(sent.uniqKey(), check.ext("msgId"));
        assertEquals(sent.uniqKey(), check.ext("transactionId"));
        assertEquals("broker-a", check.ext("bname"));
        assertEquals(Long.parseLong(check.ext("commitLogOffset")), asked.commitLogOffset());
        assertEquals(Long.parseLong(check.ext("tranStateTableOffset")), asked.queueOffset());
        assertEquals(asked.offsetMsgId(), check.ext("offsetMsgId"));
        assertTrue(asked.queueOffset() > sent.queueOffset(), "the check names the copy it stored");
        assertEquals(TOPIC, asked.topic());
        assertEquals(REAL_QUEUE_ID, asked.queueId());
        assertEquals("tx-check", TransactionTestBroker.bodyText(asked));
        assertEquals("1", asked.propertyMap().get(TransactionNames.CHECK_TIMES));
        assertEquals(TransactionTestBroker.GROUP, asked.propertyMap().get(MessageConst.PRODUCER_GROUP));
    }
}
