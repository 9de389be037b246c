package io.vrmq.broker.pop;

import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageStatus;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One queue's part of a pop: where it was read from and what came back. Built by {@link PopReader} on a store
 * reader thread; immutable, handed back to the broker's context.
 *
 * @param startOffset  where the read started (after an init or a correction of the stored offset)
 * @param isOffsetSet  {@code startOffset} is not the group's committed offset (a first pop, or the stored offset
 *                     was outside the queue): the caller commits it
 * @param records      what to send, in queue order: the stored slices, or rewritten copies for a retry topic
 */
record QueueRead(QueueKey queue, boolean isRetry, GetMessageStatus status, long startOffset, boolean isOffsetSet,
                 long nextBeginOffset, long maxOffset, List<FoundMessage> messages, List<ByteBuffer> records) {

    boolean isFound() {
        return !messages.isEmpty();
    }

    /** Messages left in the queue after this read. */
    long restCount() {
        return Math.max(0, maxOffset - nextBeginOffset);
    }

    long[] queueOffsets() {
        long[] offsets = new long[messages.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = messages.get(i).queueOffset();
        }
        return offsets;
    }

    int recordBytes() {
        int bytes = 0;
        for (ByteBuffer record : records) {
            bytes += record.remaining();
        }
        return bytes;
    }
}
