package io.vrmq.broker.timer;

import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TagFilter;

/**
 * One read of the timer topic's ConsumeQueue, keeping only what the index needs: queue offset, commit-log offset and
 * slot (the entry's tagsCode) of each entry. Built on a store reader thread by {@link #read}; immutable after.
 *
 * @param nextOffset  where the next read starts
 * @param isCaughtUp  true when nothing more can be read now
 */
record TimerQueueScan(long[] queueOffsets, long[] commitLogOffsets, long[] slots, int count, long nextOffset,
                      boolean isCaughtUp, GetMessageStatus status) {
    private static final int SCAN_BATCH = 256;
    private static final int SCAN_MAX_BYTES = 64 * 1024 * 1024;

    /**
     * Reads from {@code from}. While rebuilding ({@code from < rebuildEndOffset}) it keeps only entries with a slot
     * after {@code deliveredSlotMs} (the others were delivered before the restart) and stops at rebuildEndOffset,
     * from where every entry is new. Reader thread only.
     */
    static TimerQueueScan read(MessageStore store, long from, long rebuildEndOffset, long deliveredSlotMs) {
        boolean isRebuild = from < rebuildEndOffset;
        TagFilter filter = isRebuild ? slot -> slot > deliveredSlotMs : TagFilter.ALL;
        GetMessageResult result = store.getMessages(TimerRouting.TIMER_TOPIC, TimerRouting.TIMER_QUEUE_ID, from,
            SCAN_BATCH, SCAN_MAX_BYTES, filter);
        int size = result.messages().size();
        long[] queueOffsets = new long[size];
        long[] commitLogOffsets = new long[size];
        long[] slots = new long[size];
        int count = 0;
        for (FoundMessage found : result.messages()) {
            if (isRebuild && found.queueOffset() >= rebuildEndOffset) {
                break;   // read again unfiltered: past rebuildEndOffset every entry is held
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
        return new TimerQueueScan(queueOffsets, commitLogOffsets, slots, count, next, isCaughtUp(result.status()),
            result.status());
    }

    private static boolean isCaughtUp(GetMessageStatus status) {
        return switch (status) {
            case FOUND, NO_MATCHED_MESSAGE, OFFSET_FOUND_NULL, OFFSET_TOO_SMALL -> false;
            case NO_MESSAGE_IN_QUEUE, OFFSET_OVERFLOW_ONE, OFFSET_OVERFLOW_BADLY, NO_MATCHED_LOGIC_QUEUE -> true;
        };
    }
}
