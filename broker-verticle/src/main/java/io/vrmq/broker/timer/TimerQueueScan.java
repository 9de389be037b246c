package io.vrmq.broker.timer;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TagFilter;
import io.vrmq.store.format.RecordReader;

import java.util.ArrayList;
import java.util.List;

/**
 * One read of the timer topic's ConsumeQueue, keeping only what the index needs: queue offset, commit-log offset and
 * slot (the entry's tagsCode) of each held message, and the slot and key of each recall's delete record
 * ({@link TimerDeleteMark}: the only records read). Built on a store reader thread by {@link #read}; immutable after.
 *
 * @param nextOffset   where the next read starts
 * @param isCaughtUp   true when nothing more can be read now
 * @param lastStoreMs  store timestamp of the last entry this read kept (a held message or a delete record), or
 *                     {@link Long#MIN_VALUE} when it kept none: the queue is in store order, so every entry stored
 *                     before it has been read by now
 * @param dispatchedThroughMs when the read started, every record stamped before this instant had its ConsumeQueue
 *                     entry ({@link Long#MAX_VALUE}: every record in the commit log had): a read that reached the
 *                     queue's end has seen the timer entries stored before it, not those still behind the dispatcher
 */
record TimerQueueScan(long[] queueOffsets, long[] commitLogOffsets, long[] slots, int count,
                      List<DeleteMark> deleteMarks, long nextOffset, boolean isCaughtUp, GetMessageStatus status,
                      long lastStoreMs, long dispatchedThroughMs) {
    private static final int SCAN_BATCH = 256;
    private static final int SCAN_MAX_BYTES = 64 * 1024 * 1024;

    /**
     * Reads from {@code from}. While rebuilding ({@code from < rebuildEndOffset}) it keeps only entries with a slot
     * after {@code deliveredSlotMs} (the others were delivered before the restart) and stops at rebuildEndOffset,
     * from where every entry is new. Reader thread only.
     */
    static TimerQueueScan read(MessageStore store, long from, long rebuildEndOffset, long deliveredSlotMs) {
        long dispatchedThroughMs = dispatchedThroughMs(store);
        boolean isRebuild = from < rebuildEndOffset;
        TagFilter filter = isRebuild ? slot -> slot > deliveredSlotMs : TagFilter.ALL;
        GetMessageResult result = store.getMessages(TimerRouting.TIMER_TOPIC, TimerRouting.TIMER_QUEUE_ID, from,
            SCAN_BATCH, SCAN_MAX_BYTES, filter);
        int size = result.messages().size();
        long[] queueOffsets = new long[size];
        long[] commitLogOffsets = new long[size];
        long[] slots = new long[size];
        int count = 0;
        List<DeleteMark> deleteMarks = new ArrayList<>(0);
        FoundMessage last = null;
        for (FoundMessage found : result.messages()) {
            if (isRebuild && found.queueOffset() >= rebuildEndOffset) {
                break;   // read again unfiltered: past rebuildEndOffset every entry is held
            }
            last = found;
            String deleteKey = deleteKeyOf(found);
            if (deleteKey != null) {
                deleteMarks.add(new DeleteMark(TimerDeleteMark.slotOf(found.tagsCode()), deleteKey));
                continue;
            }
            queueOffsets[count] = found.queueOffset();
            commitLogOffsets[count] = found.commitLogOffset();
            slots[count] = found.tagsCode();
            count++;
        }
        long next = result.nextBeginOffset();
        if (isRebuild && next > rebuildEndOffset) {
            next = rebuildEndOffset;
        }
        long lastStoreMs = last == null ? Long.MIN_VALUE : RecordReader.storeTimestamp(last.record(), 0);
        return new TimerQueueScan(queueOffsets, commitLogOffsets, slots, count, deleteMarks, next,
            isCaughtUp(result.status()), result.status(), lastStoreMs, dispatchedThroughMs);
    }

    /**
     * Read before the queue: the commit log's end first, then the dispatcher's position, so "dispatched up to the
     * end" covers every record stamped before the read. Behind, the dispatcher's newest store time bounds it (less
     * its own millisecond, which may hold records not dispatched yet).
     */
    private static long dispatchedThroughMs(MessageStore store) {
        long writtenEnd = store.getCommitLogMaxOffset();
        long dispatchedStoreMs = store.dispatchedStoreTimeMs();
        if (store.dispatchedOffset() >= writtenEnd) {
            return Long.MAX_VALUE;
        }
        return dispatchedStoreMs == Long.MIN_VALUE ? Long.MIN_VALUE : dispatchedStoreMs - 1;
    }

    /** The key a delete record cancels, or null for a held message. Reads the record only when the tagsCode says. */
    private static String deleteKeyOf(FoundMessage found) {
        if (!TimerDeleteMark.mayBeDeleteRecord(found.tagsCode())) {
            return null;
        }
        return MessageProperties.parse(RecordReader.properties(found.record(), 0)).get(MessageConst.TIMER_DEL_UNIQKEY);
    }

    /** A recall's delete record: the held message of {@code slotMs} with {@code key} is not to be delivered. */
    record DeleteMark(long slotMs, String key) {
    }

    private static boolean isCaughtUp(GetMessageStatus status) {
        return switch (status) {
            case FOUND, NO_MATCHED_MESSAGE, OFFSET_FOUND_NULL, OFFSET_TOO_SMALL -> false;
            case NO_MESSAGE_IN_QUEUE, OFFSET_OVERFLOW_ONE, OFFSET_OVERFLOW_BADLY, NO_MATCHED_LOGIC_QUEUE -> true;
        };
    }
}
