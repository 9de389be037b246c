package io.vrmq.store;

import io.vrmq.store.checkpoint.Checkpoint;
import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.dispatch.Dispatcher;
import io.vrmq.store.dispatch.TagsCodeFunction;
import io.vrmq.store.index.IndexService;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import io.vrmq.store.queue.QueueOffsets;
import io.vrmq.store.queue.ReservedOffsets;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Second half of recovery, after {@link StoreRecovery} fixed the CommitLog's end: ConsumeQueue entries past that
 * end become blanks (their offsets stay taken), then the dispatcher replays the CommitLog from the checkpoint - or
 * from the oldest segment when a ConsumeQueue had to be rebuilt - and the writer's queue counters start from the
 * recovered ConsumeQueues, raised after a crash to the {@link ReservedOffsets} bounds (offsets handed out before a
 * machine crash lost their records), the skipped offsets written as blank entries. Runs once, on the opening
 * thread.
 */
final class QueueRecovery {
    private static final Logger log = LoggerFactory.getLogger(QueueRecovery.class);

    private QueueRecovery() {
    }

    record Result(Dispatcher dispatcher, QueueOffsets queueOffsets, ConcurrentSkipListMap<Long, DamagedRange> damaged,
                  RecoveryReport report) {
    }

    /** The re-dispatch polls {@code cancellation} between batches of records. */
    static Result recover(CommitLog commitLog, ConsumeQueueTable queues, IndexService index, Checkpoint checkpoint,
                          StoreRecovery.Outcome outcome, boolean clean, TagsCodeFunction tagsCodes, boolean gated,
                          ReservedOffsets reserved, OpenCancellation cancellation) {
        long end = outcome.endOffset();
        for (ConsumeQueue queue : queues.all()) {
            queue.blankAfter(end);
        }
        long checkpointed = checkpoint.existed()
                ? Math.max(commitLog.minOffset(), Math.min(checkpoint.dispatchedFlushedOffset(), end))
                : commitLog.minOffset();
        if (!clean) {
            index.resumeAfter(checkpointed - 1);   // index entries past the checkpoint may not have reached disk
        }
        boolean rebuild = queues.rebuildNeeded();
        long dispatchStart = rebuild ? commitLog.minOffset() : checkpointed;
        ConcurrentSkipListMap<Long, DamagedRange> damaged = new ConcurrentSkipListMap<>();
        outcome.damaged().forEach(range -> damaged.put(range.commitLogOffset(), range));
        long confirmOffset = recoveredConfirmOffset(commitLog, checkpoint, end);
        Dispatcher dispatcher = new Dispatcher(commitLog, queues, index, tagsCodes,
                range -> damaged.putIfAbsent(range.commitLogOffset(), range), dispatchStart, gated, confirmOffset);
        long redispatched = redispatch(dispatcher, end, cancellation);
        for (ConsumeQueue queue : queues.all()) {
            queue.deleteBelow(commitLog.minOffset());
        }
        QueueOffsets queueOffsets = QueueOffsetsRebuild.rebuild(commitLog, queues, dispatcher.dispatchedOffset(),
                new QueueOffsets());
        skipReservedOffsets(queues, queueOffsets, reserved, !gated);
        RecoveryReport report = new RecoveryReport(clean, outcome.walkedFromOffset(), end, outcome.truncatedTail(),
                List.copyOf(damaged.values()), rebuild, redispatched);
        log.info("store recovered: {}; confirm offset {}{}", report, confirmOffset,
                gated ? " (ConsumeQueues built up to it)" : "");
        return new Result(dispatcher, queueOffsets, damaged, report);
    }

    /**
     * Starts every queue at or above its reserved bound: offsets below it may have been handed out before the crash
     * although their records are lost. With {@code writeBlanks} the skipped offsets become blank ConsumeQueue
     * entries at once (never served), so a consumer that committed an offset inside the gap reads on from there.
     * Not under the confirm-offset gate: records held back by it would be padded over with blanks that consumers
     * skip before the records' entries arrive; there the blanks come with the next message (the dispatcher pads).
     */
    static void skipReservedOffsets(ConsumeQueueTable queues, QueueOffsets queueOffsets, ReservedOffsets reserved,
                                    boolean writeBlanks) {
        reserved.recovered().forEach((topic, byId) -> byId.forEach((queueId, bound) -> {
            long recovered = queueOffsets.peek(topic, queueId);
            if (bound > recovered) {
                if (writeBlanks) {
                    queues.findOrCreate(topic, queueId).putBlank(bound - 1);
                }
                queueOffsets.raise(topic, queueId, bound);
                log.warn("queue {}-{}: offsets {} to {} may have been handed out before the crash and their messages"
                        + " lost; they are skipped (blank), the next message takes offset {}", topic, queueId,
                        recovered, bound - 1, bound);
            }
        }));
    }

    /** Dispatches up to {@code end} in batches, polling {@code cancellation} before each; the records dispatched. */
    private static long redispatch(Dispatcher dispatcher, long end, OpenCancellation cancellation) {
        long records = 0;
        long batch;
        RecoveryProgress progress = new RecoveryProgress("recovery: re-dispatching the commit log into the "
                + "ConsumeQueues and the index", dispatcher.dispatchedOffset(), end, System::currentTimeMillis);
        do {
            cancellation.check("re-dispatching the commit log", dispatcher.dispatchedOffset());
            progress.at(dispatcher.dispatchedOffset());
            batch = dispatcher.dispatchUpTo(end, OpenCancellation.RECORDS_BETWEEN_CHECKS);
            records += batch;
        } while (batch == OpenCancellation.RECORDS_BETWEEN_CHECKS);
        return records;
    }

    /** The checkpoint's confirm offset clamped into [min, end] (RocketMQ's correction at recovery); end if none. */
    private static long recoveredConfirmOffset(CommitLog commitLog, Checkpoint checkpoint, long end) {
        if (!checkpoint.existed()) {
            return end;
        }
        long stored = checkpoint.confirmPhyOffset();
        long clamped = Math.max(commitLog.minOffset(), Math.min(stored, end));
        if (clamped != stored) {
            log.info("checkpoint confirm offset {} outside the commit log [{}, {}]: using {}", stored,
                    commitLog.minOffset(), end, clamped);
        }
        return clamped;
    }
}
