package io.vrmq.broker.transaction;

import io.vertx.core.Future;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.store.AppendResult;
import io.vrmq.store.AppendStatus;
import io.vrmq.store.MessageToStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Carries out a check run's actions one after another, in plan order, as RocketMQ's check does. A check stores a
 * copy of the half message at the end of the half queue with TRANSACTION_CHECK_TIMES + 1 (RocketMQ's
 * putBackHalfMsgQueue, so the progress can move past the original), then asks the producer about the copy. A discard
 * stores it to TRANS_CHECK_MAX_TIME_TOPIC, which no one consumes. Where the progress cannot pass the original (an
 * earlier message is still immune), an op record marks it handled. A store refusal that may pass (not available,
 * disk full) stops the run at that message, so the next run retries it. Called on the check service's context;
 * appends run on the store's writer thread.
 */
final class HalfActionRunner {
    private static final Logger log = LoggerFactory.getLogger(HalfActionRunner.class);
    /** RocketMQ creates TRANS_CHECK_MAX_TIME_TOPIC with one queue (TCMT_QUEUE_NUMS). */
    private static final int CHECK_MAX_TIME_QUEUE_ID = 0;

    private final StoreAccess store;
    private final TopicConfigTable topics;
    private final OpRecords opRecords;
    private final TransactionCheckSender sender;

    HalfActionRunner(StoreAccess store, TopicConfigTable topics, OpRecords opRecords, TransactionCheckSender sender) {
        this.store = store;
        this.topics = topics;
        this.opRecords = opRecords;
        this.sender = sender;
    }

    /** How many leading actions were carried out; the rest wait for the next run. */
    Future<Integer> carryOut(List<HalfAction> actions, BooleanSupplier isStopped) {
        return carryOutFrom(actions, 0, isStopped);
    }

    private Future<Integer> carryOutFrom(List<HalfAction> actions, int index, BooleanSupplier isStopped) {
        if (index == actions.size() || isStopped.getAsBoolean()) {
            return Future.succeededFuture(index);
        }
        HalfAction action = actions.get(index);
        Future<Boolean> done = action.verdict() == CheckVerdict.DISCARD ? discard(action) : check(action);
        return done.compose(isDone -> isDone ? carryOutFrom(actions, index + 1, isStopped)
            : Future.succeededFuture(index));
    }

    private Future<Boolean> check(HalfAction action) {
        StoredMessage half = action.half();
        Map<String, String> properties = half.propertyMap();
        properties.put(TransactionNames.CHECK_TIMES, Integer.toString(action.checkTimes()));
        MessageToStore copy = half.copyTo(TransactionNames.HALF_TOPIC, half.queueId(), properties,
            half.reconsumeTimes());
        return store.append(copy).compose(stored -> {
            if (!stored.isOk()) {
                log.warn("copy of half message {} for check {} not stored: {} {}; retried next run",
                    half.offsetMsgId(), action.checkTimes(), stored.status(), stored.remark());
                return Future.succeededFuture(false);
            }
            log.info("checking transaction {} of {} (check {}): half message now at queue offset {}",
                properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX), properties.get(MessageConst.REAL_TOPIC),
                action.checkTimes(), stored.queueOffset());
            sender.send(copy, properties, stored);
            return recordHandledIfNeeded(action);
        });
    }

    private Future<Boolean> discard(HalfAction action) {
        StoredMessage half = action.half();
        topics.putIfAbsent(TopicConfig.of(TransactionNames.CHECK_MAX_TIME_TOPIC, 1, Permission.READ_WRITE));
        Map<String, String> properties = half.propertyMap();
        MessageToStore moved = half.copyTo(TransactionNames.CHECK_MAX_TIME_TOPIC, CHECK_MAX_TIME_QUEUE_ID,
            properties, half.reconsumeTimes());
        return store.append(moved).compose(stored -> {
            if (!stored.isOk() && !isRefusedForGood(stored)) {
                log.warn("half message {} not moved to {}: {} {}; retried next run", half.offsetMsgId(),
                    TransactionNames.CHECK_MAX_TIME_TOPIC, stored.status(), stored.remark());
                return Future.succeededFuture(false);
            }
            log.warn("transaction {} of {} checked {} times without an answer (or older than the store keeps): "
                    + "discarded{}", properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX),
                properties.get(MessageConst.REAL_TOPIC), CheckVerdict.checkTimes(properties),
                stored.isOk() ? " to " + TransactionNames.CHECK_MAX_TIME_TOPIC : ", refused by the store: "
                    + stored.status());
            return recordHandledIfNeeded(action);
        });
    }

    private Future<Boolean> recordHandledIfNeeded(HalfAction action) {
        if (!action.needsOpRecord()) {
            return Future.succeededFuture(true);
        }
        StoredMessage half = action.half();
        return store.append(opRecords.resolving(half.queueId(), half.queueOffset())).map(stored -> {
            if (!stored.isOk()) {
                log.warn("op record for handled half message {} not stored: {} {}", half.offsetMsgId(),
                    stored.status(), stored.remark());
            }
            return stored.isOk();
        });
    }

    private static boolean isRefusedForGood(AppendResult result) {
        return result.status() == AppendStatus.MESSAGE_ILLEGAL
            || result.status() == AppendStatus.PROPERTIES_SIZE_EXCEEDED;
    }
}
