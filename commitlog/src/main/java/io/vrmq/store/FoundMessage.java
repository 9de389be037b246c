package io.vrmq.store;

import java.nio.ByteBuffer;

/**
 * One stored record as found by a read.
 *
 * @param record read-only slice of the mapped CommitLog segment, exactly the stored bytes (position 0, limit =
 *               record size). It stays valid, with unchanged bytes, for as long as it is referenced: records are
 *               never rewritten while the store runs, and a segment deleted by retention stays mapped until its
 *               last slice is garbage. Ship it as it is; do not cache it for long (it pins the mapping).
 */
public record FoundMessage(long queueOffset, long commitLogOffset, long tagsCode, ByteBuffer record) {
    public int sizeBytes() {
        return record.remaining();
    }
}
