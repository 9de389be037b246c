package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.segment.MappedSegment;
import java.nio.ByteBuffer;

/**
 * Checks that an offset is somewhere the CommitLog may be cut: inside [min offset, max offset] and at a record
 * boundary (a record's start, a segment filler's start, a segment start, or the max offset). The walk reads only
 * TOTALSIZE and MAGIC of the records before it in its segment: every byte below the max offset was checked when it
 * was written or recovered. Stateless; called by the writer.
 */
final class StoreTruncation {
    private StoreTruncation() {
    }

    /** Throws IllegalArgumentException naming the offset and why it cannot be a cut. */
    static void requireBoundary(CommitLog commitLog, long offset) {
        long min = commitLog.minOffset();
        long max = commitLog.maxOffset();
        if (offset < min || offset > max) {
            throw new IllegalArgumentException("cannot truncate the commit log to offset " + offset + ": outside the "
                    + "kept range [" + min + ", " + max + "]");
        }
        if (offset == max) {
            return;
        }
        MappedSegment segment = commitLog.segments().find(offset);
        if (segment == null) {
            throw new IllegalArgumentException("cannot truncate the commit log to offset " + offset
                    + ": no segment holds it");
        }
        int target = (int) (offset - segment.baseOffset());
        int reached = walk(segment, target, max);
        if (reached != target) {
            throw new IllegalArgumentException("cannot truncate the commit log to offset " + offset + ": not a "
                    + "record boundary in " + segment.file() + " (the nearest item before it ends at position "
                    + reached + "); the store needs a manual fix");
        }
    }

    /** Steps item by item from the segment start; returns the first item boundary at or past {@code target}. */
    private static int walk(MappedSegment segment, int target, long maxOffset) {
        ByteBuffer buffer = segment.buffer();
        int capacity = segment.capacityBytes();
        int published = (int) Math.min(capacity, maxOffset - segment.baseOffset());
        int position = 0;
        while (position < target && position + RecordLayout.BLANK_BYTES <= published) {
            int magic = RecordReader.magic(buffer, position);
            int totalSize = RecordReader.totalSize(buffer, position);
            if (magic == RecordLayout.BLANK_MAGIC) {
                return target < capacity ? position : capacity;   // a filler: nothing starts inside it
            }
            boolean isRecord = magic == RecordLayout.MAGIC_V1 || magic == RecordLayout.MAGIC_V2;
            if (!isRecord || totalSize < RecordLayout.MIN_RECORD_BYTES || position + totalSize > published) {
                return position;   // damaged bytes (skipped by recovery): no boundary can be told inside them
            }
            position += totalSize;
        }
        return position;
    }
}
