package io.vrmq.store.segment;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One fixed-size file of a segmented log (CommitLog or ConsumeQueue), named by the log offset of its first byte
 * (20 digits, zero-padded) and mapped whole with a {@link MappedByteBuffer}.
 *
 * <p>Threads: one writer writes bytes below {@link #capacityBytes()} and then publishes them by raising
 * {@link #writePosition()} (volatile); readers only read below a write position they have seen. The flusher calls
 * {@link #flush()}. Access is by absolute index only, so the shared buffer's position never matters.
 *
 * <p>Mappings are never unmapped explicitly: a slice handed to a reader stays valid while referenced, even after
 * the file is deleted; the JVM releases the mapping when the last slice is garbage.
 */
public final class MappedSegment {
    /** The page size first touches are counted in (Linux's on x86-64; a larger page only means more file writes). */
    static final int PAGE_BYTES = 4096;

    private final Path file;
    private final long baseOffset;
    private final int capacityBytes;
    private final MappedByteBuffer buffer;
    private volatile int writePosition;
    private volatile int flushedPosition;
    private final long lengthOnOpenBytes;

    private MappedSegment(Path file, long baseOffset, int capacityBytes, MappedByteBuffer buffer,
                          long lengthOnOpenBytes) {
        this.lengthOnOpenBytes = lengthOnOpenBytes;
        this.file = file;
        this.baseOffset = baseOffset;
        this.capacityBytes = capacityBytes;
        this.buffer = buffer;
    }

    public static String fileName(long baseOffset) {
        return String.format("%020d", baseOffset);
    }

    /**
     * Maps {@code file}, creating it or growing a short one to {@code capacityBytes} (the added bytes read as
     * zeroes). Write and flushed positions start at 0; the owner sets them after recovery.
     */
    public static MappedSegment map(Path file, long baseOffset, int capacityBytes) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
             FileChannel channel = raf.getChannel()) {
            long length = raf.length();
            if (length > capacityBytes) {
                throw new IllegalStateException("segment " + file + " is " + length + " bytes, more than the "
                        + "configured " + capacityBytes + "; refusing to map it (was the segment size setting changed?)");
            }
            if (length < capacityBytes) {
                raf.setLength(capacityBytes);
            }
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, capacityBytes);
            return new MappedSegment(file, baseOffset, capacityBytes, mapped, length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map segment " + file, e);
        }
    }

    /** File length found when mapped: shorter than the capacity means the file was cut (or just created). */
    public long lengthOnOpenBytes() {
        return lengthOnOpenBytes;
    }

    public Path file() {
        return file;
    }

    public long baseOffset() {
        return baseOffset;
    }

    public int capacityBytes() {
        return capacityBytes;
    }

    /** Log offset just past the published bytes. */
    public long endOffset() {
        return baseOffset + writePosition;
    }

    public int writePosition() {
        return writePosition;
    }

    public int flushedPosition() {
        return flushedPosition;
    }

    public boolean isFull() {
        return writePosition == capacityBytes;
    }

    /** The shared mapped buffer; use absolute access only. Writer and recovery only. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /**
     * True when {@code [position, position + length)} reaches a page no published byte is on: a page never written
     * since the file was created (a hole) or one past the published bytes. Pages up to the one holding the last
     * published byte have been written. Writer only.
     */
    public boolean reachesUnwrittenPage(int position, int length) {
        int writtenPagesEnd = (writePosition + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
        return position + length > writtenPagesEnd;
    }

    /**
     * Writes {@code bytes} at {@code position} through the file (a positional write on a channel opened for it)
     * instead of the mapping; the mapping shows them at once (one page cache), and {@link #flush()} forces them as
     * any mapped write. Why: a write through the mapping into a hole of a sparse file faults, and the file system
     * allocates the page inside that fault; on this project's hosts (ext4) that cost 1.5-12 ms for each first touch
     * of a new page, against 15-35 µs for the same bytes written through the file, after which mapped writes to the
     * page are cheap. RocketMQ writes its ConsumeQueues through the file channel by default
     * (putConsumeQueueDataByFileChannel). Where the file cannot be opened (deleted meanwhile), writes through the
     * mapping, as before. Writer only.
     */
    public void writeThroughFile(int position, ByteBuffer bytes) {
        if (position < 0 || position + bytes.remaining() > capacityBytes) {
            throw new IllegalStateException("write of " + bytes.remaining() + " bytes at " + position + " outside "
                    + file);
        }
        ByteBuffer source = bytes.duplicate();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            long at = position;
            while (source.hasRemaining()) {
                at += channel.write(source, at);
            }
        } catch (IOException e) {
            buffer.put(position, bytes, bytes.position(), bytes.remaining());
        }
    }

    /** Publishes bytes written below {@code position}. Writer only. */
    public void setWritePosition(int position) {
        if (position < 0 || position > capacityBytes) {
            throw new IllegalStateException("write position " + position + " outside " + file);
        }
        this.writePosition = position;
    }

    /** Marks everything below {@code position} as already durable (after recovery). */
    public void setFlushedPosition(int position) {
        this.flushedPosition = position;
    }

    /** A read-only view of {@code length} bytes at {@code position}, independent of other readers. */
    public ByteBuffer slice(int position, int length) {
        return buffer.slice(position, length).asReadOnlyBuffer();
    }

    /** Forces the published but not yet forced bytes; returns the new flushed position. Flusher only. */
    public int flush() {
        int target = writePosition;
        int from = flushedPosition;
        if (target > from) {
            buffer.force(from, target - from);
            flushedPosition = target;
        }
        return target;
    }

    /** Forces the whole mapping, whatever the positions say (recovery: the kept tail may be only in page cache). */
    public void forceAll() {
        buffer.force();
    }

    /** Zeroes {@code [from, capacity)} so stale bytes can never be read back as records. Recovery only. */
    public void zeroFrom(int from) {
        byte[] zeroes = new byte[64 * 1024];
        for (int at = from; at < capacityBytes; at += zeroes.length) {
            buffer.put(at, zeroes, 0, Math.min(zeroes.length, capacityBytes - at));
        }
        buffer.force(from, capacityBytes - from);
    }

    /** Deletes the file; the mapping lives on until unreferenced (see class comment). */
    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete segment " + file, e);
        }
    }

    public long lastModifiedMs() {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stat segment " + file, e);
        }
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
