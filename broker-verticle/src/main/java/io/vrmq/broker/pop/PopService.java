package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.store.AppendResult;
import io.vrmq.store.TagFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * POP_MESSAGE's work (RocketMQ's PopMessageProcessor.popMsgFromQueue): plan and lock the queues, read them on a
 * store reader thread, write one revive-log record per queue that gave messages (a checkpoint, or an orderly pop)
 * and wait until it is durable, then register it, move the pop offsets and hand the messages out. A reply therefore
 * never names a message whose checkpoint a crash could lose. A failed write hands out nothing and moves nothing.
 * <p>
 * Call on the broker's context; reads and writes hop to the store's threads and come back.
 */
final class PopService {
    private static final Logger log = LoggerFactory.getLogger(PopService.class);
    private static final long FULL_WARNING_INTERVAL_MS = 10_000;

    private final BrokerContext broker;
    private final PopConfig config;
    private final PopState state;
    private final ReviveLog reviveLog;
    private final PopReader reader;
    private final PopMeters meters;
    private final Random random = new Random();
    private long lastFullWarningMs;

    PopService(BrokerContext broker, PopConfig config, PopState state, ReviveLog reviveLog, PopMeters meters) {
        this.broker = broker;
        this.config = config;
        this.state = state;
        this.reviveLog = reviveLog;
        this.reader = new PopReader(broker.store().store(), config.initPopOffsetByCheckMsgInMem());
        this.meters = meters;
    }

    /** Pops up to maxMsgNums messages; an empty result when none is there (the caller may hold the request). */
    Future<PopResult> pop(PopMessageRequest request, TopicConfig topic, TagFilter filter) {
        InflightTable table = state.requireActive();
        long popTime = System.currentTimeMillis();
        int randomQ = random.nextInt(100);
        int reviveQueueId = state.nextReviveQueue(table.reviveQueueCount());
        int replyReviveQid = request.isOrder() ? PopNames.ORDER_REVIVE_QUEUE : reviveQueueId;
        if (!request.isOrder() && table.checkpointCount() >= config.popCkMaxBufferSize()) {
            warnFull(popTime, table);
            return Future.succeededFuture(PopResult.empty(popTime, request.invisibleTime(), replyReviveQid, 0));
        }
        PopPlan plan = PopPlan.forPop(broker, config, state, table, request, topic, randomQ, popTime);
        if (plan.queues().isEmpty()) {
            return Future.succeededFuture(PopResult.empty(popTime, request.invisibleTime(), replyReviveQid,
                plan.skippedBacklog()));
        }
        PopReader.Receipt receipt = config.popResponseReturnActualRetryTopic() ? null : new PopReader.Receipt(
            request.topic(), popTime, request.invisibleTime(), replyReviveQid, broker.config().brokerName());
        return broker.store().read(() -> reader.read(plan.queues(), request.maxMsgNums(), filter, receipt))
            .compose(reads -> request.isOrder()
                ? finishOrderly(request, reads, popTime, reviveQueueId, plan.skippedBacklog())
                : finish(request, reads, popTime, reviveQueueId, plan.skippedBacklog()))
            .eventually(() -> {
                plan.release();
                return Future.succeededFuture();
            });
    }

    /** Non-orderly: one checkpoint per queue that gave messages, written together, then the offsets move. */
    private Future<PopResult> finish(PopMessageRequest request, List<QueueRead> reads, long popTime,
                                     int reviveQueueId, long skippedBacklog) {
        List<QueueRead> found = new ArrayList<>();
        List<ReviveRecord> records = new ArrayList<>();
        for (QueueRead read : reads) {
            if (read.isFound()) {
                found.add(read);
                records.add(new ReviveRecord.Pop(read.queue(), read.startOffset(), popTime, request.invisibleTime(),
                    diffs(read), read.nextBeginOffset(), false, broker.config().brokerName()));
            }
        }
        long rest = skippedBacklog + restOf(reads);
        if (records.isEmpty()) {
            commitOffsets(reads, false);
            return Future.succeededFuture(PopResult.empty(popTime, request.invisibleTime(), reviveQueueId, rest));
        }
        return reviveLog.append(reviveQueueId, records).compose(appended -> {
            if (!appended.isOk()) {
                return Future.succeededFuture(refused(request, appended, popTime, reviveQueueId, rest, found));
            }
            InflightTable table = state.requireActive();
            for (int i = 0; i < records.size(); i++) {
                table.pin(reviveQueueId, appended.queueOffset() + i);
            }
            return reviveLog.durable(appended).map(durable -> {
                PopHeaderInfo info = new PopHeaderInfo();
                List<ByteBuffer> out = new ArrayList<>();
                // No longer master meanwhile: the records are in the log for the next master; hand the messages out.
                boolean isCurrent = state.tableIfActive() == table;
                for (int i = 0; i < found.size(); i++) {
                    QueueRead read = found.get(i);
                    if (isCurrent) {
                        table.add(new Checkpoint(read.queue(), read.startOffset(), popTime, request.invisibleTime(),
                            diffs(read), read.nextBeginOffset(), reviveQueueId, appended.queueOffset() + i, false,
                            table.nextSequence()));
                    }
                    info.addQueue(read.queue(), read.startOffset(), read.queueOffsets());
                    out.addAll(read.records());
                }
                commitOffsets(reads, false);
                return counted(request, new PopResult(popTime, request.invisibleTime(), reviveQueueId, rest, out,
                    info.startOffsetInfo(), info.msgOffsetInfo(), null), records.size());
            });
        });
    }

    /** Orderly: the consumer offset stays; each queue's new orderly pop replaces its last one. */
    private Future<PopResult> finishOrderly(PopMessageRequest request, List<QueueRead> reads, long popTime,
                                            int reviveQueueId, long skippedBacklog) {
        InflightTable table = state.requireActive();
        List<QueueRead> found = new ArrayList<>();
        List<ReviveRecord.OrderPop> records = new ArrayList<>();
        for (QueueRead read : reads) {
            if (read.isFound()) {
                long[] offsets = read.queueOffsets();
                found.add(read);
                records.add(new ReviveRecord.OrderPop(read.queue(), request.attemptId(), popTime,
                    request.invisibleTime(), offsets, OrderCheckpoint.countsAfter(table.order(read.queue()),
                    request.attemptId(), offsets), broker.config().brokerName()));
            }
        }
        long rest = skippedBacklog + restOf(reads);
        commitOffsets(reads, true);
        if (records.isEmpty()) {
            return Future.succeededFuture(PopResult.empty(popTime, request.invisibleTime(),
                PopNames.ORDER_REVIVE_QUEUE, rest));
        }
        return reviveLog.append(reviveQueueId, records).compose(appended -> {
            if (!appended.isOk()) {
                return Future.succeededFuture(refused(request, appended, popTime, PopNames.ORDER_REVIVE_QUEUE, rest,
                    found));
            }
            for (int i = 0; i < records.size(); i++) {
                table.pin(reviveQueueId, appended.queueOffset() + i);
            }
            return reviveLog.durable(appended).map(durable -> {
                PopHeaderInfo info = new PopHeaderInfo();
                List<ByteBuffer> out = new ArrayList<>();
                for (int i = 0; i < found.size(); i++) {
                    QueueRead read = found.get(i);
                    ReviveRecord.OrderPop record = records.get(i);
                    OrderCheckpoint pop = new OrderCheckpoint(read.queue(), record.attemptId(), popTime,
                        request.invisibleTime(), record.offsets(), record.consumedCounts(), reviveQueueId,
                        appended.queueOffset() + i);
                    if (state.tableIfActive() == table) {
                        table.putOrder(pop);
                    }
                    info.addQueue(read.queue(), read.startOffset(), read.queueOffsets());
                    info.addOrderCounts(pop);
                    out.addAll(read.records());
                }
                return counted(request, new PopResult(popTime, request.invisibleTime(), PopNames.ORDER_REVIVE_QUEUE,
                    rest, out, info.startOffsetInfo(), info.msgOffsetInfo(), info.orderCountInfo()), records.size());
            });
        });
    }

    /**
     * Moves the pop offsets after a pop: past what a non-orderly pop handed out, and in every case to a first pop's
     * start, past a stored offset that had left the queue, and past filtered messages skipped (RocketMQ commits those
     * for orderly pops too; an orderly pop's own messages move the offset only when acked).
     */
    private void commitOffsets(List<QueueRead> reads, boolean isOrder) {
        for (QueueRead read : reads) {
            QueueKey queue = read.queue();
            long target;
            if (read.isFound()) {
                target = isOrder ? read.startOffset() : read.nextBeginOffset();
            } else {
                target = Math.max(read.startOffset(), read.nextBeginOffset());
            }
            long committed = broker.offsets().query(queue.group(), queue.topic(), queue.queueId());
            if (target != committed && (read.isOffsetSet() || target > committed)) {
                broker.offsets().commit(queue.group(), queue.topic(), queue.queueId(), target);
            }
        }
    }

    private PopResult refused(PopMessageRequest request, AppendResult appended, long popTime, int reviveQid,
                              long rest, List<QueueRead> found) {
        log.warn("pop of {} by {}: revive log write refused ({} {}); nothing handed out", request.topic(),
            request.consumerGroup(), appended.status(), appended.remark());
        long notHanded = 0;
        for (QueueRead read : found) {
            notHanded += read.messages().size();
        }
        return PopResult.empty(popTime, request.invisibleTime(), reviveQid, rest + notHanded);
    }

    private PopResult counted(PopMessageRequest request, PopResult result, int checkpoints) {
        broker.metrics().messagesPulled(request.topic(), request.consumerGroup(), result.messageCount(),
            result.bytes());
        meters.popped(result.messageCount(), checkpoints);
        return result;
    }

    private static long restOf(List<QueueRead> reads) {
        long rest = 0;
        for (QueueRead read : reads) {
            rest += read.restCount();
        }
        return rest;
    }

    private static int[] diffs(QueueRead read) {
        long[] offsets = read.queueOffsets();
        int[] diffs = new int[offsets.length];
        for (int i = 0; i < offsets.length; i++) {
            diffs[i] = (int) (offsets[i] - read.startOffset());
        }
        return diffs;
    }

    private void warnFull(long nowMs, InflightTable table) {
        if (nowMs - lastFullWarningMs >= FULL_WARNING_INTERVAL_MS) {
            lastFullWarningMs = nowMs;
            log.warn("popCkMaxBufferSize {} reached ({} checkpoints open): pops get no new messages until some are "
                + "acked or revived", config.popCkMaxBufferSize(), table.checkpointCount());
        }
    }
}
