package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.AppendResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The state side of ACK_MESSAGE, BATCH_ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME (RocketMQ's AckMessageProcessor
 * and ChangeInvisibleTimeProcessor), after the processors checked topic, queue and offset:
 * <ul>
 * <li>non-orderly ack: an ack record is made durable, then the message leaves its checkpoint. A receipt whose
 * checkpoint is gone (acked, revived, or never ours) or whose message is acked already is answered SUCCESS and
 * changes nothing: RocketMQ's broker does not check either, and its revive ignores such acks;</li>
 * <li>change: a one-message checkpoint from now (RocketMQ's new CK) and an ack of the message in its old one, in one
 * durable write; for a receipt whose message is no longer in flight nothing is written (RocketMQ writes a new CK
 * anyway, which would bring an acked or already revived message back once more);</li>
 * <li>orderly ack and change: RocketMQ's commitAndNext and updateNextVisibleTime on the queue's orderly pop, made
 * durable as a record; an ack that unblocks the queue wakes its held pops.</li>
 * </ul>
 * Call on the broker's context.
 */
final class AckService {
    private static final Logger log = LoggerFactory.getLogger(AckService.class);

    private final BrokerContext broker;
    private final PopState state;
    private final ReviveLog reviveLog;
    private final PopMeters meters;
    private final Consumer<QueueKey> onUnblocked;

    /** @param onUnblocked called when an orderly queue may be popped again (wakes its held pops) */
    AckService(BrokerContext broker, PopState state, ReviveLog reviveLog, PopMeters meters,
               Consumer<QueueKey> onUnblocked) {
        this.broker = broker;
        this.state = state;
        this.reviveLog = reviveLog;
        this.meters = meters;
        this.onUnblocked = onUnblocked;
    }

    /** Acks {@code offsets} of the pop the receipt fields name; completes once the acks are durable. */
    Future<Void> ack(QueueKey queue, ExtraInfo receipt, List<Long> offsets) {
        long startNanos = System.nanoTime();
        InflightTable table = state.requireActive();
        if (receipt.isOrder()) {
            return ackOrderly(queue, receipt.popTime(), offsets, 0).onSuccess(done ->
                meters.acked(offsets.size(), startNanos));
        }
        Checkpoint checkpoint = table.find(queue, receipt.ckStartOffset(), receipt.popTime());
        List<Long> unacked = unackedOf(checkpoint, offsets);
        if (unacked.isEmpty()) {
            return Future.succeededFuture();
        }
        ReviveRecord.Ack record = new ReviveRecord.Ack(queue, checkpoint.startOffset(), checkpoint.popTime(),
            unacked, broker.config().brokerName());
        return write(checkpoint.reviveQueueId(), List.of(record)).map(durable -> {
            if (state.tableIfActive() != table) {
                return null;
            }
            for (long offset : unacked) {
                table.ack(checkpoint, checkpoint.indexOf(offset));
            }
            meters.acked(unacked.size(), startNanos);
            return null;
        });
    }

    /**
     * Moves a message's deadline to now + {@code invisibleTime}; the answer carries the new receipt's popTime,
     * invisibleTime and revive queue, as RocketMQ's ChangeInvisibleTimeResponseHeader.
     */
    Future<ChangedReceipt> change(QueueKey queue, ExtraInfo receipt, long offset, long invisibleTime,
                                  boolean isSuspend) {
        InflightTable table = state.requireActive();
        long now = System.currentTimeMillis();
        if (receipt.isOrder()) {
            return changeOrderly(queue, receipt, offset, now + invisibleTime);
        }
        ChangedReceipt answer = new ChangedReceipt(now, invisibleTime, receipt.reviveQueueId());
        Checkpoint old = table.find(queue, receipt.ckStartOffset(), receipt.popTime());
        if (unackedOf(old, List.of(offset)).isEmpty()) {
            return Future.succeededFuture(answer);
        }
        int reviveQueueId = old.reviveQueueId();
        List<ReviveRecord> records = List.of(
            new ReviveRecord.Pop(queue, offset, now, invisibleTime, new int[] {0}, -1, isSuspend,
                broker.config().brokerName()),
            new ReviveRecord.Ack(queue, old.startOffset(), old.popTime(), List.of(offset),
                broker.config().brokerName()));
        return reviveLog.append(reviveQueueId, records).compose(appended -> {
            requireStored(appended);
            table.pin(reviveQueueId, appended.queueOffset());
            table.noteAppended(reviveQueueId, appended.queueOffset() + 1);
            return reviveLog.durable(appended).map(durable -> {
                if (state.tableIfActive() != table) {
                    return new ChangedReceipt(now, invisibleTime, reviveQueueId);
                }
                table.add(new Checkpoint(queue, offset, now, invisibleTime, new int[] {0}, -1, reviveQueueId,
                    appended.queueOffset(), isSuspend, table.nextSequence()));
                table.ack(old, old.indexOf(offset));
                meters.changed();
                return new ChangedReceipt(now, invisibleTime, reviveQueueId);
            });
        });
    }

    /** The new receipt's fields after a change (RocketMQ's ChangeInvisibleTimeResponseHeader). */
    record ChangedReceipt(long popTime, long invisibleTime, int reviveQid) {
    }

    /**
     * RocketMQ's ackOrderly for each offset in turn (after a pop of the queue in progress): an offset below the
     * committed one, or another pop's ack, changes nothing; one the pop does not hold is MESSAGE_ILLEGAL.
     */
    private Future<Void> ackOrderly(QueueKey queue, long popTime, List<Long> offsets, int index) {
        if (index == offsets.size()) {
            return Future.succeededFuture();
        }
        return state.whenUnlocked(queue)
            .compose(unlocked -> ackOrderlyOne(queue, popTime, offsets.get(index)))
            .compose(done -> ackOrderly(queue, popTime, offsets, index + 1));
    }

    private Future<Void> ackOrderlyOne(QueueKey queue, long popTime, long offset) {
        InflightTable table = state.requireActive();
        long committed = broker.offsets().query(queue.group(), queue.topic(), queue.queueId());
        OrderCheckpoint pop = table.order(queue);
        if (offset < committed || pop == null) {
            return Future.succeededFuture();
        }
        long next = table.commitOrder(pop, offset, popTime);
        if (next == OrderCheckpoint.ILLEGAL) {
            throw new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL, String.format(
                "offset is illegal, key:%s, old:%d, commit:%d, next:%d", queue, committed, offset, next));
        }
        if (next == OrderCheckpoint.STALE) {
            return Future.succeededFuture();
        }
        if (next > committed) {
            broker.offsets().commit(queue.group(), queue.topic(), queue.queueId(), next);
        }
        if (table.order(queue) == null || !table.order(queue).blocks(null, System.currentTimeMillis())) {
            onUnblocked.accept(queue);
        }
        return write(pop.reviveQueueId(), List.of(new ReviveRecord.OrderAck(queue, popTime, offset, next)));
    }

    private Future<ChangedReceipt> changeOrderly(QueueKey queue, ExtraInfo receipt, long offset, long nextVisibleMs) {
        ChangedReceipt answer = new ChangedReceipt(receipt.popTime(), nextVisibleMs - receipt.popTime(),
            receipt.reviveQueueId());
        return state.whenUnlocked(queue).compose(unlocked -> {
            InflightTable table = state.requireActive();
            long committed = broker.offsets().query(queue.group(), queue.topic(), queue.queueId());
            OrderCheckpoint pop = table.order(queue);
            if (offset < committed || pop == null || !pop.changeVisibleTime(offset, receipt.popTime(),
                nextVisibleMs)) {
                return Future.succeededFuture(answer);
            }
            meters.changed();
            return write(pop.reviveQueueId(), List.of(new ReviveRecord.OrderChange(queue, receipt.popTime(), offset,
                nextVisibleMs))).map(answer);
        });
    }

    /** Writes records that open nothing and waits until they are durable. */
    private Future<Void> write(int reviveQueueId, List<ReviveRecord> records) {
        return reviveLog.append(reviveQueueId, records).compose(appended -> {
            requireStored(appended);
            InflightTable table = state.tableIfActive();
            if (table != null) {
                table.noteAppended(reviveQueueId, appended.queueOffset() + records.size() - 1);
            }
            return reviveLog.durable(appended);
        });
    }

    private static List<Long> unackedOf(Checkpoint checkpoint, List<Long> offsets) {
        List<Long> unacked = new ArrayList<>(offsets.size());
        if (checkpoint == null) {
            return unacked;
        }
        for (long offset : offsets) {
            int index = checkpoint.indexOf(offset);
            if (index >= 0 && !checkpoint.isAcked(index) && !unacked.contains(offset)) {
                unacked.add(offset);
            }
        }
        return unacked;
    }

    private static void requireStored(AppendResult appended) {
        if (!appended.isOk()) {
            log.warn("POP revive log write refused: {} {}", appended.status(), appended.remark());
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "revive log write refused: "
                + appended.status() + " " + appended.remark());
        }
    }
}
