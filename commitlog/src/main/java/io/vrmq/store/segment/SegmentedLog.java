package io.vrmq.store.segment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * An append-only log split into equal {@link MappedSegment} files named by their start offset. The segment list is
 * copy-on-write behind a volatile array, so readers take a consistent snapshot without locks.
 *
 * <p>Threads: the writer appends segments ({@link #roll}) while retention deletes the oldest on another thread, so
 * the methods that replace the array are synchronized (rare: once per segment), or one could drop the other's change;
 * any thread may look segments up without a lock; the flusher calls {@link #flush()}, which {@link #truncateTo} holds
 * off (a force that began before a cut must not raise the flushed offset past it again).
 */
public final class SegmentedLog {
    private final Path directory;
    private final int segmentBytes;
    private volatile MappedSegment[] segments;
    private volatile long flushedOffset;
    /** Taken by flush and truncateTo only: appends (roll) never wait for a force. */
    private final Object flushLock = new Object();

    private SegmentedLog(Path directory, int segmentBytes, MappedSegment[] segments) {
        this.directory = directory;
        this.segmentBytes = segmentBytes;
        this.segments = segments;
    }

    /**
     * Maps every segment file found in {@code directory} (creating the directory). Write positions are left at 0;
     * the owner recovers them. Files whose names are not offsets are ignored.
     */
    public static SegmentedLog open(Path directory, int segmentBytes) {
        try {
            Files.createDirectories(directory);
            List<MappedSegment> found = new ArrayList<>();
            try (Stream<Path> files = Files.list(directory)) {
                for (Path file : files.sorted().toList()) {
                    String name = file.getFileName().toString();
                    if (name.length() == 20 && name.chars().allMatch(Character::isDigit)) {
                        found.add(MappedSegment.map(file, Long.parseLong(name), segmentBytes));
                    }
                }
            }
            return new SegmentedLog(directory, segmentBytes, found.toArray(new MappedSegment[0]));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open log directory " + directory, e);
        }
    }

    public Path directory() {
        return directory;
    }

    public int segmentBytes() {
        return segmentBytes;
    }

    /** A snapshot of the segments, oldest first. */
    public MappedSegment[] segments() {
        return segments;
    }

    public boolean isEmpty() {
        return segments.length == 0;
    }

    public MappedSegment first() {
        MappedSegment[] snapshot = segments;
        return snapshot.length == 0 ? null : snapshot[0];
    }

    public MappedSegment last() {
        MappedSegment[] snapshot = segments;
        return snapshot.length == 0 ? null : snapshot[snapshot.length - 1];
    }

    /** Offset of the first byte kept (0 for an empty log). */
    public long minOffset() {
        MappedSegment first = first();
        return first == null ? 0 : first.baseOffset();
    }

    /** Offset past the last published byte. */
    public long maxOffset() {
        MappedSegment last = last();
        return last == null ? 0 : last.endOffset();
    }

    /** True when segment start offsets are not consecutive multiples of the segment size (a file is missing). */
    public boolean hasGap() {
        MappedSegment[] snapshot = segments;
        for (int i = 1; i < snapshot.length; i++) {
            if (snapshot[i].baseOffset() != snapshot[i - 1].baseOffset() + segmentBytes) {
                return true;
            }
        }
        return snapshot.length > 0 && snapshot[0].baseOffset() % segmentBytes != 0;
    }

    /** True when a file found on open was shorter than the segment size (cut by a crash or by hand). */
    public boolean hadShortFile() {
        for (MappedSegment segment : segments) {
            if (segment.lengthOnOpenBytes() < segmentBytes) {
                return true;
            }
        }
        return false;
    }

    /** The segment holding {@code offset}, or null when it is not kept. */
    public MappedSegment find(long offset) {
        MappedSegment[] snapshot = segments;
        if (snapshot.length == 0 || offset < snapshot[0].baseOffset()) {
            return null;
        }
        long index = (offset - snapshot[0].baseOffset()) / segmentBytes;
        if (index >= snapshot.length) {
            return null;
        }
        MappedSegment candidate = snapshot[(int) index];
        return candidate.baseOffset() <= offset && offset < candidate.baseOffset() + segmentBytes ? candidate : null;
    }

    /** Creates and maps the segment starting at {@code baseOffset}, which must follow the last one. Writer only. */
    public synchronized MappedSegment roll(long baseOffset) {
        MappedSegment last = last();
        if (baseOffset % segmentBytes != 0 || (last != null && baseOffset != last.baseOffset() + segmentBytes)) {
            throw new IllegalStateException("segment at " + baseOffset + " does not follow " + last + " in "
                    + directory);
        }
        MappedSegment created = MappedSegment.map(directory.resolve(MappedSegment.fileName(baseOffset)), baseOffset,
                segmentBytes);
        MappedSegment[] grown = Arrays.copyOf(segments, segments.length + 1);
        grown[grown.length - 1] = created;
        segments = grown;
        return created;
    }

    /**
     * Cuts the log at {@code offset}: the segment holding it keeps bytes below it (the rest is zeroed and forced),
     * later segments are deleted. Recovery, or the writer with readers already kept below {@code offset} by the
     * owner's own max offset.
     */
    public void truncateTo(long offset) {
        synchronized (flushLock) {
            truncateLocked(offset);
        }
    }

    private synchronized void truncateLocked(long offset) {
        MappedSegment[] snapshot = segments;
        List<MappedSegment> kept = new ArrayList<>();
        for (MappedSegment segment : snapshot) {
            if (segment.baseOffset() >= offset) {
                segment.delete();
                continue;
            }
            if (segment.baseOffset() + segmentBytes > offset) {
                int position = (int) (offset - segment.baseOffset());
                segment.zeroFrom(position);
                segment.setWritePosition(position);
                segment.setFlushedPosition(position);
            }
            kept.add(segment);
        }
        segments = kept.toArray(new MappedSegment[0]);
        flushedOffset = Math.min(flushedOffset, offset);
    }

    /** Removes the oldest segment from the list and deletes its file. Retention only. */
    public synchronized MappedSegment deleteFirst() {
        MappedSegment[] snapshot = segments;
        if (snapshot.length == 0) {
            return null;
        }
        segments = Arrays.copyOfRange(snapshot, 1, snapshot.length);
        snapshot[0].delete();
        return snapshot[0];
    }

    /** Removes all segments and their files. */
    public synchronized void deleteAll() {
        MappedSegment[] snapshot = segments;
        segments = new MappedSegment[0];
        for (MappedSegment segment : snapshot) {
            segment.delete();
        }
        flushedOffset = 0;
    }

    /**
     * Forces every published, unforced byte; returns the log offset below which all bytes are durable. Earlier
     * segments in a snapshot are always full (the writer fills a segment before it rolls), so durability is
     * contiguous up to the last segment's flushed position.
     */
    public long flush() {
        synchronized (flushLock) {
            return flushLocked();
        }
    }

    private long flushLocked() {
        MappedSegment[] snapshot = segments;
        if (snapshot.length == 0) {
            return flushedOffset;
        }
        for (MappedSegment segment : snapshot) {
            if (segment.flushedPosition() < segment.writePosition()) {
                segment.flush();
            }
        }
        MappedSegment last = snapshot[snapshot.length - 1];
        long durable = Math.max(flushedOffset, last.baseOffset() + last.flushedPosition());
        flushedOffset = durable;
        return durable;
    }

    public long flushedOffset() {
        return flushedOffset;
    }

    /** Bytes published but not yet forced, over every segment. Any thread (an estimate while the writer writes). */
    public long unflushedBytes() {
        long unflushed = 0;
        for (MappedSegment segment : segments) {
            unflushed += Math.max(0, segment.writePosition() - segment.flushedPosition());
        }
        return unflushed;
    }

    /** Declares everything below {@code offset} durable (recovery: it was read back from disk). */
    public void markFlushed(long offset) {
        for (MappedSegment segment : segments) {
            long end = Math.min(offset, segment.baseOffset() + segment.capacityBytes());
            if (end > segment.baseOffset()) {
                segment.setFlushedPosition((int) (end - segment.baseOffset()));
            }
        }
        flushedOffset = offset;
    }
}
