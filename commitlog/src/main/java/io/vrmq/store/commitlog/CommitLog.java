package io.vrmq.store.commitlog;

import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.RecordCheck;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.format.RecordState;
import io.vrmq.store.format.RecordWriter;
import io.vrmq.store.segment.MappedSegment;
import io.vrmq.store.segment.SegmentedLog;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CommitLog: every message of every topic, appended in {@link RecordLayout} format to segments of
 * {@code mappedFileSizeCommitLog} bytes. A record (or a whole batch) never spans two segments: when it does not fit
 * with room for the blank filler, the filler ends the segment and the record starts the next one.
 *
 * <p>Disk space: segment files are created sparse (mapped at full size, blocks allocated as pages are written).
 * Before creating one the writer checks that the disk has room for the whole segment and refuses the append with
 * DISK_FULL otherwise; the store also turns read-only past {@code diskCriticalRatio}. If another process fills the
 * disk after that check, a write to an unallocated page of the mapping would fault (SIGBUS): keep the critical
 * ratio well below 100 %. Writing zeroes ahead of the writer (as RocketMQ's warm-up option does) would close that
 * gap at the cost of writing every segment twice; not done yet.
 *
 * <p>Threads: exactly one writer calls {@link #append} (or, on a replica, {@link ReplicaLog} writes a master's bytes);
 * it publishes by raising {@link #maxOffset()} (volatile) after the bytes are in place, so any thread may read records
 * below a max offset it has seen. The flusher calls {@link #flush()}. Retention calls {@link #deleteOldestSegment()}.
 */
public final class CommitLog {
    private static final Logger log = LoggerFactory.getLogger(CommitLog.class);
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final SegmentedLog segments;
    private final HostAddress storeHost;
    private final LongSupplier usableDiskBytes;
    private volatile long maxOffset;

    /**
     * @param recoveredEndOffset where the next record goes (recovery found the last whole record ending here)
     * @param usableDiskBytes    bytes left on the disk, checked before a new segment file is created
     */
    public CommitLog(SegmentedLog segments, HostAddress storeHost, long recoveredEndOffset,
                     LongSupplier usableDiskBytes) {
        this.segments = segments;
        this.storeHost = storeHost;
        this.usableDiskBytes = usableDiskBytes;
        this.maxOffset = recoveredEndOffset;
    }

    public HostAddress storeHost() {
        return storeHost;
    }

    public SegmentedLog segments() {
        return segments;
    }

    public int segmentBytes() {
        return segments.segmentBytes();
    }

    /** Offset past the last published record: everything below it is readable. */
    public long maxOffset() {
        return maxOffset;
    }

    /** Offset of the oldest byte kept. */
    public long minOffset() {
        return segments.isEmpty() ? maxOffset : segments.minOffset();
    }

    /**
     * Appends {@code count} encoded messages as consecutive records in one segment, with consecutive queue offsets
     * from {@code firstQueueOffset}. Returns the commitLogOffset of the first record, or -1 when no new segment
     * could be created (disk full; nothing of the batch was written). Writer only.
     */
    public long append(EncodedMessage[] messages, int count, int totalBytes, long firstQueueOffset,
                       long storeTimestamp) {
        MappedSegment segment = segmentWithRoom(totalBytes);
        if (segment == null) {
            return -1;
        }
        int position = segment.writePosition();
        long firstOffset = segment.baseOffset() + position;
        ByteBuffer buffer = segment.buffer();
        for (int i = 0; i < count; i++) {
            long physicalOffset = segment.baseOffset() + position;
            position += RecordWriter.write(buffer, position, messages[i], firstQueueOffset + i, physicalOffset,
                    storeTimestamp, storeHost);
        }
        segment.setWritePosition(position);
        maxOffset = segment.baseOffset() + position;
        return firstOffset;
    }

    /** The current segment if {@code bytes} fit with the filler reserve, else a new one; null when disk is full. */
    private MappedSegment segmentWithRoom(int bytes) {
        MappedSegment last = segments.last();
        if (last != null && last.writePosition() + bytes + RecordLayout.BLANK_BYTES <= last.capacityBytes()) {
            return last;
        }
        if (last != null && !last.isFull()) {
            endSegment(last);
        }
        return createSegment(last == null ? maxOffset : last.baseOffset() + last.capacityBytes());
    }

    /** Creates the segment starting at {@code baseOffset}; null when the disk has no room for it. Writer only. */
    MappedSegment createSegment(long baseOffset) {
        if (usableDiskBytes.getAsLong() < segments.segmentBytes()) {
            log.error("disk full: {} usable bytes < segment size {}; refusing writes until space frees",
                    usableDiskBytes.getAsLong(), segments.segmentBytes());
            return null;
        }
        try {
            MappedSegment created = segments.roll(baseOffset);
            log.info("commit log rolled to segment {}", created.file());
            return created;
        } catch (UncheckedIOException e) {
            log.error("cannot create commit log segment at offset {}: {}", baseOffset, e.getMessage());
            return null;
        }
    }

    /** Makes everything below {@code offset} readable: the bytes are in place and checked. Writer only. */
    void publish(long offset) {
        maxOffset = offset;
    }

    private void endSegment(MappedSegment segment) {
        int position = segment.writePosition();
        RecordWriter.writeBlank(segment.buffer(), position, segment.capacityBytes() - position);
        segment.setWritePosition(segment.capacityBytes());
        maxOffset = segment.baseOffset() + segment.capacityBytes();
    }

    /**
     * The record starting at {@code commitLogOffset} as a read-only slice, or null when that offset is not a valid
     * record (never written, deleted, damaged, or a filler). Checks size, magic, physical offset and body CRC.
     * Any thread.
     */
    public ByteBuffer readRecord(long commitLogOffset) {
        long published = maxOffset;
        if (commitLogOffset < 0 || commitLogOffset >= published) {
            return null;
        }
        MappedSegment segment = segments.find(commitLogOffset);
        if (segment == null) {
            return null;
        }
        int position = (int) (commitLogOffset - segment.baseOffset());
        int available = (int) Math.min(segment.capacityBytes(), published - segment.baseOffset()) - position;
        ByteBuffer buffer = segment.buffer();
        if (RecordCheck.check(buffer, position, available, segment.capacityBytes(), commitLogOffset)
                != RecordState.VALID) {
            return null;
        }
        return segment.slice(position, RecordReader.totalSize(buffer, position));
    }

    /**
     * Published bytes from {@code offset} as a read-only slice of at most {@code maxBytes}, ending at the segment end
     * or the max offset, whichever comes first (the replication stream). Empty at the max offset; null when
     * {@code offset} is not kept (below the min, above the max, in a deleted segment). Any thread.
     */
    public ByteBuffer readPublished(long offset, int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes " + maxBytes + " <= 0");
        }
        long published = maxOffset;
        if (offset == published) {
            return NOTHING;
        }
        if (offset < 0 || offset > published) {
            return null;
        }
        MappedSegment segment = segments.find(offset);
        if (segment == null) {
            return null;
        }
        int position = (int) (offset - segment.baseOffset());
        long segmentEnd = segment.baseOffset() + segment.capacityBytes();
        int length = (int) Math.min(maxBytes, Math.min(published, segmentEnd) - offset);
        return segment.slice(position, length);
    }

    /**
     * Drops every byte at or after {@code offset}, a record boundary the caller checked: readers stop below it first
     * (the max offset drops), then the rest of its segment is zeroed and later segments deleted. Writer only.
     */
    public void truncateTo(long offset) {
        maxOffset = offset;
        segments.truncateTo(offset);
    }

    /** Store timestamp of the record at {@code commitLogOffset} (no checks: the caller knows it is a record). */
    public long storeTimestampAt(long commitLogOffset) {
        MappedSegment segment = segments.find(commitLogOffset);
        if (segment == null) {
            return -1;
        }
        return RecordReader.storeTimestamp(segment.buffer(), (int) (commitLogOffset - segment.baseOffset()));
    }

    /** Forces unforced bytes; returns the offset below which everything is durable. Flusher only. */
    public long flush() {
        return segments.flush();
    }

    public long flushedOffset() {
        return segments.flushedOffset();
    }

    /** Deletes the oldest segment unless it is the one being written. Returns it, or null. Retention only. */
    public MappedSegment deleteOldestSegment() {
        MappedSegment[] snapshot = segments.segments();
        if (snapshot.length < 2) {
            return null;
        }
        return segments.deleteFirst();
    }
}
