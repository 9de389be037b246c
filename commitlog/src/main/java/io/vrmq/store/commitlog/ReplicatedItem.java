package io.vrmq.store.commitlog;

import io.vrmq.store.ReplicationException;
import io.vrmq.store.format.RecordCheck;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.format.RecordState;
import java.nio.ByteBuffer;

/**
 * Sizes and checks one item a master sent: a record, or the blank filler that ends a segment (its 8 header bytes,
 * then whatever the master's file holds up to the segment end). Items tile a segment exactly: a record always leaves
 * room for the filler (the writer's rule, in RocketMQ as here) and the filler reaches the segment end. Stateless;
 * positions are absolute in the given buffer, which may be a received chunk or the pending bytes.
 */
final class ReplicatedItem {
    /** TOTALSIZE and MAGIC: enough to size any item. */
    static final int HEADER_BYTES = RecordLayout.BLANK_BYTES;

    private ReplicatedItem() {
    }

    /**
     * Bytes the item whose header is at {@code buffer[at]} occupies: TOTALSIZE for a record, the rest of the segment
     * for a filler. Throws when the header cannot start an item at {@code offset}.
     *
     * @param roomBytes bytes from {@code offset} to the end of its segment
     */
    static int sizeBytes(ByteBuffer buffer, int at, int roomBytes, long offset) {
        int totalSize = RecordReader.totalSize(buffer, at);
        int magic = RecordReader.magic(buffer, at);
        if (magic == RecordLayout.BLANK_MAGIC) {
            if (totalSize != roomBytes) {
                throw rejected(offset, "a segment filler of " + totalSize + " bytes that does not reach the segment "
                        + "end " + roomBytes + " bytes away (master and replica must use the same "
                        + "mappedFileSizeCommitLog)");
            }
            return roomBytes;
        }
        if (magic != RecordLayout.MAGIC_V1 && magic != RecordLayout.MAGIC_V2) {
            throw rejected(offset, String.format("magic 0x%08X, neither a record nor a segment filler", magic));
        }
        if (totalSize < RecordLayout.MIN_RECORD_BYTES || totalSize > roomBytes - RecordLayout.BLANK_BYTES) {
            throw rejected(offset, "a record of TOTALSIZE " + totalSize + " bytes, which does not fit the "
                    + roomBytes + " bytes left in its segment with room for the filler");
        }
        return totalSize;
    }

    /** Throws unless the whole item at {@code buffer[at]} is a filler or a record that passes {@link RecordCheck}. */
    static void checkWhole(ByteBuffer buffer, int at, int sizeBytes, long offset) {
        if (RecordReader.magic(buffer, at) == RecordLayout.BLANK_MAGIC) {
            return;   // sizeBytes already placed its end on the segment end; the rest of a filler is not data
        }
        // The segment size argument only matters for fillers, handled above.
        RecordState state = RecordCheck.check(buffer, at, sizeBytes, at + sizeBytes, offset);
        if (state == RecordState.CRC_MISMATCH) {
            throw rejected(offset, "a record whose body CRC does not match");
        }
        if (state != RecordState.VALID) {
            throw rejected(offset, "a record whose header is inconsistent (part lengths or PHYSICALOFFSET "
                    + RecordReader.physicalOffset(buffer, at) + ")");
        }
    }

    private static ReplicationException rejected(long offset, String what) {
        return new ReplicationException("replicated bytes at commit log offset " + offset + " hold " + what
                + "; nothing from there on is kept: resend from that offset");
    }
}
