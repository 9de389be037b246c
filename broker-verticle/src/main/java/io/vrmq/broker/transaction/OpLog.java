package io.vrmq.broker.transaction;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TagFilter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The op records from the check progress to the end of the op queue, read at the start of a check run: which half
 * queue offsets are resolved, and how far the op progress may move once the half queue progress has moved (an op
 * record is behind us when every half offset it names is). RocketMQ's fillOpRemoveMap and calculateOpOffset, reading
 * the whole unread op queue at once instead of 32 records at a time: it holds only the resolutions since the oldest
 * unresolved half message, which every check moves to the end of the half queue.
 * <p>
 * {@link #read} touches mapped memory: a store reader thread only. The result is then only read, on one thread.
 */
final class OpLog {
    private static final int BATCH_MESSAGES = 32;
    private static final int BATCH_MAX_BYTES = 4 * 1024 * 1024;

    private final Set<Long> resolvedHalfOffsets;
    private final List<OpEntry> entries;
    private final long endOffset;

    private OpLog(Set<Long> resolvedHalfOffsets, List<OpEntry> entries, long endOffset) {
        this.resolvedHalfOffsets = resolvedHalfOffsets;
        this.entries = entries;
        this.endOffset = endOffset;
    }

    /** Reads op queue {@code queueId} from {@code fromOffset} to its end. */
    static OpLog read(MessageStore store, int queueId, long fromOffset) {
        Set<Long> resolved = new HashSet<>();
        List<OpEntry> entries = new ArrayList<>();
        long offset = fromOffset;
        while (true) {
            GetMessageResult result = store.getMessages(TransactionNames.OP_TOPIC, queueId, offset, BATCH_MESSAGES,
                BATCH_MAX_BYTES, TagFilter.ALL);
            for (FoundMessage found : result.messages()) {
                StoredMessage op = StoredMessage.decode(found.record());
                List<Long> halfOffsets = OpRecords.halfOffsets(op.propertyMap().get(MessageConst.TAGS), op.body());
                resolved.addAll(halfOffsets);
                long lastHalfOffset = halfOffsets.isEmpty() ? -1 : Collections.max(halfOffsets);
                entries.add(new OpEntry(found.queueOffset(), lastHalfOffset));
            }
            if (!QueueWalk.canReadOn(result, offset)) {
                return new OpLog(resolved, entries, QueueWalk.endOffset(result, offset));
            }
            offset = result.nextBeginOffset();
        }
    }

    boolean isResolved(long halfQueueOffset) {
        return resolvedHalfOffsets.contains(halfQueueOffset);
    }

    /** The op progress once the half progress is {@code halfProgress}: the first op record still ahead of it. */
    long progressAfter(long halfProgress) {
        for (OpEntry entry : entries) {
            if (entry.lastHalfOffset() >= halfProgress) {
                return entry.queueOffset();
            }
        }
        return endOffset;
    }

    /** One op record: where it is, and the largest half offset it names (-1 when none). */
    private record OpEntry(long queueOffset, long lastHalfOffset) {
    }
}
