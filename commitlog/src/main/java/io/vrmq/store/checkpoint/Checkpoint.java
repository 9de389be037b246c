package io.vrmq.store.checkpoint;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The {@code checkpoint} file (4 KiB, RocketMQ's six int64 slots). Our meaning of each slot:
 * <pre>
 *  offset  size  field                  we store
 *   0       8    physicMsgTimestamp     wall time of the last CommitLog force
 *   8       8    logicsMsgTimestamp     wall time of the last ConsumeQueue force
 *  16       8    indexMsgTimestamp      wall time of the last index force
 *  24       8    masterFlushedOffset    CommitLog offset below which every byte was forced
 *  32       8    confirmPhyOffset       controller mode: CommitLog offset below which every in-sync replica has
 *                                       every byte (RocketMQ's confirm offset; the dispatch gate's limit)
 *  40       8    logicsPhysicalOffset   CommitLog offset below which every record's ConsumeQueue and index
 *                                       entries were forced: crash recovery re-dispatches from here
 * </pre>
 * Threads: written by the logics flusher (and at close); read once at open.
 */
public final class Checkpoint {
    public static final int FILE_BYTES = 4096;
    static final int PHYSIC_MSG_TIMESTAMP_AT = 0;
    static final int LOGICS_MSG_TIMESTAMP_AT = PHYSIC_MSG_TIMESTAMP_AT + 8;
    static final int INDEX_MSG_TIMESTAMP_AT = LOGICS_MSG_TIMESTAMP_AT + 8;
    static final int MASTER_FLUSHED_OFFSET_AT = INDEX_MSG_TIMESTAMP_AT + 8;
    static final int CONFIRM_PHY_OFFSET_AT = MASTER_FLUSHED_OFFSET_AT + 8;
    static final int LOGICS_PHYSICAL_OFFSET_AT = CONFIRM_PHY_OFFSET_AT + 8;

    private final MappedByteBuffer buffer;
    private final boolean existed;

    private Checkpoint(MappedByteBuffer buffer, boolean existed) {
        this.buffer = buffer;
        this.existed = existed;
    }

    public static Checkpoint open(Path file) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
             FileChannel channel = raf.getChannel()) {
            boolean existed = raf.length() >= LOGICS_PHYSICAL_OFFSET_AT + 8;
            raf.setLength(FILE_BYTES);
            return new Checkpoint(channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES), existed);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open checkpoint " + file, e);
        }
    }

    /** False for a new store (or a checkpoint file cut short): recovery then starts from the oldest segment. */
    public boolean existed() {
        return existed;
    }

    public long commitLogFlushedOffset() {
        return buffer.getLong(MASTER_FLUSHED_OFFSET_AT);
    }

    public long dispatchedFlushedOffset() {
        return buffer.getLong(LOGICS_PHYSICAL_OFFSET_AT);
    }

    /** The confirm offset last written (a store from before controller mode wrote its flushed offset here). */
    public long confirmPhyOffset() {
        return buffer.getLong(CONFIRM_PHY_OFFSET_AT);
    }

    public long physicMsgTimestamp() {
        return buffer.getLong(PHYSIC_MSG_TIMESTAMP_AT);
    }

    /** Records a completed round of forces and forces the checkpoint itself. */
    public synchronized void write(long nowMs, long commitLogFlushedOffset, long dispatchedFlushedOffset,
                                   long confirmPhyOffset) {
        buffer.putLong(PHYSIC_MSG_TIMESTAMP_AT, nowMs);
        buffer.putLong(LOGICS_MSG_TIMESTAMP_AT, nowMs);
        buffer.putLong(INDEX_MSG_TIMESTAMP_AT, nowMs);
        buffer.putLong(MASTER_FLUSHED_OFFSET_AT, commitLogFlushedOffset);
        buffer.putLong(CONFIRM_PHY_OFFSET_AT, confirmPhyOffset);
        buffer.putLong(LOGICS_PHYSICAL_OFFSET_AT, dispatchedFlushedOffset);
        buffer.force();
    }
}
