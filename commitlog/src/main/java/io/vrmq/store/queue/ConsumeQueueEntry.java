package io.vrmq.store.queue;

/**
 * A reusable holder for one ConsumeQueue entry, filled by {@link ConsumeQueue#read}. Mutable and owned by one
 * reading thread, so a scan over many entries allocates nothing.
 */
public final class ConsumeQueueEntry {
    private long queueOffset;
    private long commitLogOffset;
    private int sizeBytes;
    private long tagsCode;

    void set(long queueOffset, long commitLogOffset, int sizeBytes, long tagsCode) {
        this.queueOffset = queueOffset;
        this.commitLogOffset = commitLogOffset;
        this.sizeBytes = sizeBytes;
        this.tagsCode = tagsCode;
    }

    public long queueOffset() {
        return queueOffset;
    }

    public long commitLogOffset() {
        return commitLogOffset;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    public long tagsCode() {
        return tagsCode;
    }

    /** A blank: a queue offset with no message (queue start padding, or a damaged record's reserved offset). */
    public boolean isBlank() {
        return sizeBytes == ConsumeQueue.BLANK_SIZE || sizeBytes <= 0;
    }
}
