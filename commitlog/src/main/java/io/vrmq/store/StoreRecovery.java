package io.vrmq.store;

import io.vrmq.store.checkpoint.Checkpoint;
import io.vrmq.store.commitlog.RecordScanner;
import io.vrmq.store.segment.MappedSegment;
import io.vrmq.store.segment.SegmentedLog;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where the CommitLog really ends and cuts it there.
 * <ul>
 * <li>Clean shutdown (no abort file): trust the checkpoint, verify only the last segment.</li>
 * <li>Crash: walk from the segment holding the older of the checkpoint's flushed offsets (everything before it was
 * forced and dispatched), checking size, magic, physical offset and body CRC of each record.</li>
 * </ul>
 * Unlike RocketMQ, damage in the middle does not end the walk: it is skipped and reported (see {@link RecordScanner})
 * so later acknowledged records keep their offsets. Only a torn tail of the last segment is cut off. Short segment
 * files were already grown to full size with zeroes when mapped, so a cut file recovers to its last whole record.
 * Runs once, on the opening thread, before any other store thread starts.
 */
final class StoreRecovery {
    private static final Logger log = LoggerFactory.getLogger(StoreRecovery.class);

    private StoreRecovery() {
    }

    record Outcome(long walkedFromOffset, long endOffset, boolean truncatedTail, List<DamagedRange> damaged) {
    }

    /** The walk, which only reads, polls {@code cancellation}; the cut after it is short and never interrupted. */
    static Outcome recoverCommitLog(SegmentedLog segments, Checkpoint checkpoint, boolean cleanShutdown,
                                    long emptyLogOffset, OpenCancellation cancellation) {
        if (segments.isEmpty()) {
            return new Outcome(emptyLogOffset, emptyLogOffset, false, List.of());
        }
        long start = walkStart(segments, checkpoint, cleanShutdown);
        RecordScanner scanner = new RecordScanner(segments, start);
        List<DamagedRange> damaged = new ArrayList<>();
        // The end is not known before the walk: the mapped segments' capacity bounds it.
        RecoveryProgress progress = new RecoveryProgress("recovery: walking the commit log", start,
                segments.last().baseOffset() + segments.last().capacityBytes(), System::currentTimeMillis);
        RecordScanner.Step step;
        while ((step = scanner.next(Long.MAX_VALUE)) != RecordScanner.Step.END) {
            cancellation.tick("walking the commit log", scanner.offset());
            progress.at(scanner.offset());
            if (step == RecordScanner.Step.DAMAGED) {
                DamagedRange range = new DamagedRange(scanner.segment().file(), scanner.position(),
                        scanner.stepOffset(), scanner.sizeBytes(), scanner.reason());
                log.warn("commit log damage skipped: file {} position {} length {} bytes ({})", range.file(),
                        range.position(), range.lengthBytes(), range.reason());
                damaged.add(range);
            }
        }
        long end = Math.max(scanner.offset(), segments.minOffset());
        boolean torn = hasBytesAfter(segments, end);
        if (torn) {
            log.warn("commit log torn tail cut at offset {}", end);
        }
        cutAt(segments, end, torn);
        log.info("commit log recovered: walked from {} to {}, {} damaged ranges", start, end, damaged.size());
        return new Outcome(start, end, torn, damaged);
    }

    private static long walkStart(SegmentedLog segments, Checkpoint checkpoint, boolean cleanShutdown) {
        if (!checkpoint.existed()) {
            return segments.minOffset();
        }
        long safe = cleanShutdown ? segments.last().baseOffset()
                : Math.min(checkpoint.commitLogFlushedOffset(), checkpoint.dispatchedFlushedOffset());
        MappedSegment holding = segments.find(Math.max(safe, segments.minOffset()));
        if (holding == null) {
            return cleanShutdown ? segments.last().baseOffset() : segments.minOffset();
        }
        return holding.baseOffset();
    }

    /** True when a non-zero byte follows {@code end} in its segment, or later segments exist. */
    private static boolean hasBytesAfter(SegmentedLog segments, long end) {
        MappedSegment holding = segments.find(end);
        if (holding == null) {
            return false;
        }
        if (holding != segments.last()) {
            return true;
        }
        int at = (int) (end - holding.baseOffset());
        int capacity = holding.capacityBytes();
        for (; at < capacity && (at & 7) != 0; at++) {
            if (holding.buffer().get(at) != 0) {
                return true;
            }
        }
        for (; at + 8 <= capacity; at += 8) {   // 8 bytes a step: this runs over up to a whole 1 GiB segment
            if (holding.buffer().getLong(at) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Sets write positions so appends continue at {@code end}; zeroes and deletes what follows when needed. */
    private static void cutAt(SegmentedLog segments, long end, boolean zeroTail) {
        if (zeroTail) {
            segments.truncateTo(end);
        }
        for (MappedSegment segment : segments.segments()) {
            long segmentEnd = segment.baseOffset() + segment.capacityBytes();
            int position = end >= segmentEnd ? segment.capacityBytes() : (int) Math.max(0, end - segment.baseOffset());
            segment.setWritePosition(position);
        }
        MappedSegment last = segments.last();
        if (last != null) {
            last.forceAll();   // the tail we keep may still sit only in the page cache after a process crash
        }
        segments.markFlushed(end);
    }
}
