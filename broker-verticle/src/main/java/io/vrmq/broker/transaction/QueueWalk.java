package io.vrmq.broker.transaction;

import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;

/**
 * How the check service walks the half and op queues after a read: past records that are gone (retention, damage),
 * up to the queue's end, and back to the end when a saved progress lies beyond it (a store that was emptied while
 * its consumerOffset.json was kept), as RocketMQ's check does with an OFFSET_ILLEGAL pull. Pure.
 */
final class QueueWalk {
    private QueueWalk() {
    }

    /** Whether a read from {@code result.nextBeginOffset()} may find more after a read from {@code offset}. */
    static boolean canReadOn(GetMessageResult result, long offset) {
        if (result.status() == GetMessageStatus.FOUND) {
            return true;
        }
        boolean isSkippable = result.status() == GetMessageStatus.OFFSET_TOO_SMALL
            || result.status() == GetMessageStatus.OFFSET_FOUND_NULL
            || result.status() == GetMessageStatus.NO_MATCHED_MESSAGE;
        return isSkippable && result.nextBeginOffset() > offset;
    }

    /** Where the walk ends when a read from {@code offset} found nothing more. */
    static long endOffset(GetMessageResult result, long offset) {
        return result.status() == GetMessageStatus.OFFSET_OVERFLOW_BADLY ? result.nextBeginOffset() : offset;
    }
}
