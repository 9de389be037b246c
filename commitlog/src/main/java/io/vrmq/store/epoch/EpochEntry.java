package io.vrmq.store.epoch;

/**
 * One master term in the CommitLog (RocketMQ's {@code EpochEntry}): the records in [startOffset, endOffset) were
 * written by the master of {@code epoch}. The newest entry is open: its end is {@link #OPEN_END_OFFSET}.
 * The epoch file stores only epochs and start offsets; an entry ends where the next begins.
 */
public record EpochEntry(int epoch, long startOffset, long endOffset) {
    /** End of the newest entry (RocketMQ's {@code LAST_EPOCH_END_OFFSET}). */
    public static final long OPEN_END_OFFSET = Long.MAX_VALUE;

    public EpochEntry {
        if (startOffset < 0 || endOffset < startOffset) {
            throw new IllegalArgumentException("epoch " + epoch + " range [" + startOffset + ", " + endOffset
                + ") is not a range of commit log offsets");
        }
    }

    /** An entry that is still open (the newest). */
    public static EpochEntry open(int epoch, long startOffset) {
        return new EpochEntry(epoch, startOffset, OPEN_END_OFFSET);
    }

    /** True when {@code offset} lies in [startOffset, endOffset). */
    public boolean covers(long offset) {
        return startOffset <= offset && offset < endOffset;
    }

    public EpochEntry withEndOffset(long newEndOffset) {
        return new EpochEntry(epoch, startOffset, newEndOffset);
    }
}
