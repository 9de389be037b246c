package io.vrmq.store.commitlog;

import io.vrmq.store.ReplicationException;
import io.vrmq.store.segment.MappedSegment;
import io.vrmq.store.segment.SegmentedLog;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica side of the CommitLog. A master streams its CommitLog as raw chunks (RocketMQ's HA: up to 32 KiB from
 * any offset, never across a segment end, often starting or ending inside a record); this writes them at the same
 * offsets, byte for byte, and publishes ({@link CommitLog#maxOffset()}) over each whole item - a record that passes
 * {@link io.vrmq.store.format.RecordCheck}, or the filler that ends a segment once its bytes reach the segment end.
 *
 * <p>Only whole, checked items reach the mapped segment: the incomplete item at the end of a chunk waits in a
 * {@link PendingItem} until the rest arrives. A crash therefore never leaves part of a record in the file (a record
 * cut inside its topic or properties would pass recovery's checks, since the CRC covers the body only, and be kept
 * with zeroes in it), and recovering a replica is exactly recovering a master.
 *
 * <p>Not thread-safe: the store's single writer calls {@link #write}; {@link #writeOffset()} is for any thread.
 */
public final class ReplicaLog {
    private static final Logger log = LoggerFactory.getLogger(ReplicaLog.class);

    private final CommitLog commitLog;
    private final SegmentedLog segments;
    private final PendingItem pending = new PendingItem();
    /** The published max offset plus the pending bytes: where the next chunk must start. */
    private volatile long writeOffset;

    public ReplicaLog(CommitLog commitLog) {
        this.commitLog = commitLog;
        this.segments = commitLog.segments();
        this.writeOffset = commitLog.maxOffset();
    }

    /** Where the next replicated bytes must start: the max offset plus what is pending. Any thread. */
    public long writeOffset() {
        return Math.max(writeOffset, commitLog.maxOffset());   // own appends (a master's) move only the max offset
    }

    /**
     * Forgets a partly received record and continues at the max offset (after a truncation or a switch of who
     * writes the store). Writer only.
     */
    public void reset() {
        pending.clear();
        writeOffset = commitLog.maxOffset();
    }

    /**
     * Writes {@code chunk} (position to limit; its position is left alone) received at {@code offset} and returns the
     * new published max offset. {@code offset} must be the {@link #writeOffset()}, or the max offset (a resend after
     * a reconnect: the pending bytes are dropped), or on an empty log any segment start. On a bad item it publishes
     * the whole good items before it, drops the rest and throws ReplicationException. Writer only.
     */
    public long write(long offset, ByteBuffer chunk) {
        checkContinues(offset);
        int length = chunk.remaining();
        if (length == 0) {
            return commitLog.maxOffset();
        }
        MappedSegment segment = segmentFor(offset);
        int room = roomAt(segment, offset);
        if (length > room) {
            throw new ReplicationException("a replicated chunk of " + length + " bytes at commit log offset " + offset
                    + " crosses the segment end " + room + " bytes away: master and replica must use the same "
                    + "mappedFileSizeCommitLog (" + segments.segmentBytes() + " here)");
        }
        try {
            take(segment, chunk);
        } catch (ReplicationException e) {
            pending.clear();
            writeOffset = commitLog.maxOffset();
            throw e;
        }
        writeOffset = commitLog.maxOffset() + pending.sizeBytes();
        return commitLog.maxOffset();
    }

    private void checkContinues(long offset) {
        if (segments.isEmpty()) {
            startAt(offset);
            return;
        }
        long expected = writeOffset();
        long published = commitLog.maxOffset();
        if (offset == expected) {
            return;
        }
        if (offset == published) {
            pending.clear();   // a resend after a reconnect: the partly received record comes again
            writeOffset = published;
            return;
        }
        throw new ReplicationException("replicated bytes at commit log offset " + offset + " do not continue this "
                + "replica: the next byte goes at " + expected + (expected == published ? ""
                : " (or at " + published + ", the end of the last whole record, to resend the partly received one)"));
    }

    /** An empty log starts wherever the master's stream starts, provided it is a segment start. */
    private void startAt(long offset) {
        int segmentBytes = segments.segmentBytes();
        if (offset < 0 || offset % segmentBytes != 0) {
            throw new ReplicationException("an empty replica starts at a segment start, a multiple of "
                    + "mappedFileSizeCommitLog=" + segmentBytes + "; commit log offset " + offset + " is not (master "
                    + "and replica must use the same segment size)");
        }
        createSegment(offset);
        pending.clear();
        commitLog.publish(offset);
        writeOffset = offset;
        log.info("empty replica commit log starts at offset {}", offset);
    }

    /** The last segment, or a new one when {@code offset} is its end. */
    private MappedSegment segmentFor(long offset) {
        MappedSegment last = segments.last();
        long lastEnd = last.baseOffset() + last.capacityBytes();
        if (offset < last.baseOffset() || offset > lastEnd) {
            throw new IllegalStateException("replica write offset " + offset + " outside the last segment " + last);
        }
        return offset < lastEnd ? last : createSegment(lastEnd);
    }

    private MappedSegment createSegment(long baseOffset) {
        MappedSegment created = commitLog.createSegment(baseOffset);
        if (created == null) {
            throw new ReplicationException("no room on disk for a new " + segments.segmentBytes() + "-byte commit "
                    + "log segment at offset " + baseOffset + "; free space, then resend from there");
        }
        return created;
    }

    /** Places and publishes the whole items the chunk completes or holds; its incomplete tail goes to pending. */
    private void take(MappedSegment segment, ByteBuffer chunk) {
        int at = chunk.position();
        int end = chunk.limit();
        if (!pending.isEmpty()) {
            at = fillPending(chunk, at, end, segment);
            int itemBytes = pendingItemBytes(segment);
            if (itemBytes == 0 || pending.sizeBytes() < itemBytes) {
                return;   // the chunk ended inside the pending item
            }
            place(pending.buffer(), 0, itemBytes, segment);
            pending.clear();
        }
        while (end - at >= ReplicatedItem.HEADER_BYTES) {
            long offset = commitLog.maxOffset();
            int itemBytes = ReplicatedItem.sizeBytes(chunk, at, roomAt(segment, offset), offset);
            if (itemBytes > end - at) {
                break;
            }
            place(chunk, at, itemBytes, segment);
            at += itemBytes;
        }
        pending.append(chunk, at, end - at);
    }

    /** Moves chunk bytes into the pending item up to its end (or the chunk's); returns the chunk position after. */
    private int fillPending(ByteBuffer chunk, int at, int end, MappedSegment segment) {
        int headerBytes = Math.min(Math.max(0, ReplicatedItem.HEADER_BYTES - pending.sizeBytes()), end - at);
        pending.append(chunk, at, headerBytes);
        int position = at + headerBytes;
        int itemBytes = pendingItemBytes(segment);
        if (itemBytes == 0) {
            return position;
        }
        int bodyBytes = Math.min(itemBytes - pending.sizeBytes(), end - position);
        pending.append(chunk, position, bodyBytes);
        return position + bodyBytes;
    }

    /** Size of the pending item once whole, 0 while its header is incomplete; checks the header. */
    private int pendingItemBytes(MappedSegment segment) {
        if (pending.sizeBytes() < ReplicatedItem.HEADER_BYTES) {
            return 0;
        }
        long offset = commitLog.maxOffset();
        return ReplicatedItem.sizeBytes(pending.buffer(), 0, roomAt(segment, offset), offset);
    }

    /** Checks a whole item, copies it to its offset (the max offset) in the segment and publishes it. */
    private void place(ByteBuffer source, int at, int itemBytes, MappedSegment segment) {
        long offset = commitLog.maxOffset();
        ReplicatedItem.checkWhole(source, at, itemBytes, offset);
        int position = (int) (offset - segment.baseOffset());
        segment.buffer().put(position, source, at, itemBytes);
        segment.setWritePosition(position + itemBytes);
        commitLog.publish(offset + itemBytes);
    }

    private static int roomAt(MappedSegment segment, long offset) {
        return (int) (segment.baseOffset() + segment.capacityBytes() - offset);
    }
}
