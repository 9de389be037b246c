package io.vrmq.broker.transaction;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TagFilter;

import java.util.ArrayList;
import java.util.List;

/**
 * The read half of a check run: walks the half queue from the check progress, skips what the op records resolve, and
 * gives every other message its {@link CheckVerdict}, until a message is not due yet, the queue ends or a per-run
 * limit is reached. Writes nothing: the {@link CheckPlan} it returns is carried out afterwards, on the check
 * service's context. Touches mapped memory: call {@link #scan} on a store reader thread only. Stateless.
 */
final class HalfQueueScan {
    /** Entries looked at per run: bounds one run's reads when the queue is long; the next run goes on. */
    static final int MAX_ENTRIES_PER_RUN = 100_000;
    /** Checks and discards per run: bounds the appends (and check requests) one run makes. */
    static final int MAX_ACTIONS_PER_RUN = 256;
    private static final int BATCH_MESSAGES = 32;
    private static final int BATCH_MAX_BYTES = 4 * 1024 * 1024;

    private final MessageStore store;
    private final TransactionConfig config;
    private final long fileReservedMs;

    HalfQueueScan(MessageStore store, TransactionConfig config, long fileReservedMs) {
        this.store = store;
        this.config = config;
        this.fileReservedMs = fileReservedMs;
    }

    /**
     * Scans from the saved progress ({@code halfProgress}, {@code opProgress}; -1 when none was saved yet: the
     * queue's min offset, as RocketMQ's fetchConsumeOffset).
     */
    CheckPlan scan(long halfProgress, long opProgress, long runStartMs) {
        int queueId = TransactionNames.HALF_QUEUE_ID;
        OpLog ops = OpLog.read(store, queueId, opProgress >= 0 ? opProgress
            : store.getMinOffsetInQueue(TransactionNames.OP_TOPIC, queueId));
        long offset = halfProgress >= 0 ? halfProgress
            : store.getMinOffsetInQueue(TransactionNames.HALF_TOPIC, queueId);
        Walk walk = new Walk(ops);
        while (true) {
            GetMessageResult result = store.getMessages(TransactionNames.HALF_TOPIC, queueId, offset, BATCH_MESSAGES,
                BATCH_MAX_BYTES, TagFilter.ALL);
            for (FoundMessage found : result.messages()) {
                if (walk.isLimitReached() || !walk.visit(found, runStartMs)) {
                    return walk.plan(found.queueOffset());
                }
            }
            if (!QueueWalk.canReadOn(result, offset)) {
                return walk.plan(QueueWalk.endOffset(result, offset));
            }
            offset = result.nextBeginOffset();
        }
    }

    /** One scan's state. */
    private final class Walk {
        private final OpLog ops;
        private final List<HalfAction> actions = new ArrayList<>();
        private long firstImmuneOffset = -1;
        private int visited;

        Walk(OpLog ops) {
            this.ops = ops;
        }

        boolean isLimitReached() {
            return visited >= MAX_ENTRIES_PER_RUN || actions.size() >= MAX_ACTIONS_PER_RUN;
        }

        /** Looks at one entry; false when the walk ends before it (not due yet). */
        boolean visit(FoundMessage found, long runStartMs) {
            visited++;
            if (ops.isResolved(found.queueOffset())) {
                return true;
            }
            StoredMessage half = StoredMessage.decode(found.record());
            CheckVerdict verdict = CheckVerdict.of(half, runStartMs, config, fileReservedMs);
            switch (verdict) {
                case WAIT -> {
                    return false;
                }
                case IMMUNE -> {
                    if (firstImmuneOffset < 0) {
                        firstImmuneOffset = found.queueOffset();
                    }
                }
                case CHECK, DISCARD -> actions.add(new HalfAction(verdict, half,
                    CheckVerdict.checkTimes(half.propertyMap()) + 1, firstImmuneOffset >= 0));
            }
            return true;
        }

        CheckPlan plan(long stopOffset) {
            return new CheckPlan(List.copyOf(actions), stopOffset, firstImmuneOffset, isLimitReached(), ops);
        }
    }
}
