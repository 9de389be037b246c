package io.vrmq.store.commitlog;

import io.vrmq.store.format.RecordCheck;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.format.RecordState;
import io.vrmq.store.segment.MappedSegment;
import io.vrmq.store.segment.SegmentedLog;

/**
 * Walks the CommitLog record by record from a record boundary, stepping over segment fillers, and - unlike RocketMQ
 * - past damage: a record whose body CRC fails is skipped by its (consistent) size; unreadable bytes are skipped by
 * scanning for the next position that holds a valid record whose PHYSICALOFFSET names that very position. Only in
 * the last segment does unreadable data with nothing valid after it end the walk (a torn tail).
 *
 * <p>Not thread-safe: one instance per walking thread (recovery, then the dispatcher). Each {@link #next} call fills
 * the public "current step" accessors; no allocation per record.
 */
public final class RecordScanner {
    /** What {@link #next} found. */
    public enum Step { RECORD, DAMAGED, END }

    private final SegmentedLog segments;
    private long offset;
    private MappedSegment segment;
    private int position;
    private int sizeBytes;
    private boolean headerReadable;
    private String reason;

    public RecordScanner(SegmentedLog segments, long startOffset) {
        this.segments = segments;
        this.offset = startOffset;
    }

    /** The offset the next call examines (after END: where the log's readable records end). */
    public long offset() {
        return offset;
    }

    /** Segment of the current RECORD or DAMAGED step. */
    public MappedSegment segment() {
        return segment;
    }

    /** Position in {@link #segment()} of the current step. */
    public int position() {
        return position;
    }

    /** Commit-log offset of the current step. */
    public long stepOffset() {
        return segment.baseOffset() + position;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    /** DAMAGED only: true when the header and lengths are intact and only the body CRC failed. */
    public boolean isHeaderReadable() {
        return headerReadable;
    }

    public String reason() {
        return reason;
    }

    /** Undoes the last RECORD or DAMAGED step: the next call examines that step's offset again. */
    public void rewindStep() {
        offset = stepOffset();
    }

    /**
     * Moves to the next record or damaged range below {@code limitOffset}; END when there is none (yet): at the
     * limit, at zeroes in the last segment, or at a torn tail.
     */
    public Step next(long limitOffset) {
        while (offset < limitOffset) {
            MappedSegment current = segments.find(offset);
            if (current == null) {
                MappedSegment following = firstSegmentAfter(offset);
                if (following == null) {
                    return Step.END;
                }
                offset = following.baseOffset();
                continue;
            }
            segment = current;
            position = (int) (offset - current.baseOffset());
            int capacity = current.capacityBytes();
            int available = (int) Math.min(capacity, limitOffset - current.baseOffset()) - position;
            RecordState state = RecordCheck.check(current.buffer(), position, available, capacity, offset);
            switch (state) {
                case VALID:
                    sizeBytes = RecordReader.totalSize(current.buffer(), position);
                    offset += sizeBytes;
                    return Step.RECORD;
                case BLANK:
                    offset = current.baseOffset() + capacity;
                    continue;
                case CRC_MISMATCH:
                    return damaged(RecordReader.totalSize(current.buffer(), position), true, "body CRC mismatch");
                case END:
                    if (isLastSegment(current)) {
                        return Step.END;
                    }
                    return damaged(capacity - position, false, "zeroes before the end of a full segment");
                default:
                    return skipCorrupt(current, limitOffset);
            }
        }
        return Step.END;
    }

    private Step skipCorrupt(MappedSegment current, long limitOffset) {
        int capacity = current.capacityBytes();
        int end = (int) Math.min(capacity, limitOffset - current.baseOffset());
        for (int candidate = position + 1; candidate + RecordLayout.MIN_RECORD_BYTES <= end; candidate++) {
            long candidateOffset = current.baseOffset() + candidate;
            if (!RecordCheck.mayStartRecord(current.buffer(), candidate, candidateOffset)) {
                continue;
            }
            RecordState state = RecordCheck.check(current.buffer(), candidate, end - candidate, capacity,
                    candidateOffset);
            if (state == RecordState.VALID || state == RecordState.CRC_MISMATCH) {
                return damaged(candidate - position, false, "unreadable record header");
            }
        }
        if (isLastSegment(current) && limitOffset == Long.MAX_VALUE) {
            return Step.END;   // a torn tail: recovery truncates here
        }
        return damaged(end - position, false, "unreadable bytes up to the segment end");
    }

    private Step damaged(int lengthBytes, boolean readableHeader, String why) {
        sizeBytes = lengthBytes;
        headerReadable = readableHeader;
        reason = why;
        offset += lengthBytes;
        return Step.DAMAGED;
    }

    /** The first kept segment after {@code from} (skips a deleted head or a missing file). */
    private MappedSegment firstSegmentAfter(long from) {
        for (MappedSegment candidate : segments.segments()) {
            if (candidate.baseOffset() > from) {
                return candidate;
            }
        }
        return null;
    }

    private boolean isLastSegment(MappedSegment current) {
        return segments.last() == current;
    }
}
