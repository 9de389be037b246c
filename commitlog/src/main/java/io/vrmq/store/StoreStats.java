package io.vrmq.store;

/**
 * A snapshot of store figures for metrics.
 *
 * @param forceCount        CommitLog forces since open (with group commit, far fewer than SYNC_FLUSH appends)
 * @param lastForceMicros   duration of the latest CommitLog force
 * @param maxForceMicros    longest CommitLog force since open
 * @param pageCacheHitReads messages read by queue offset since open that RocketMQ's rule places in the page cache
 *                          (within {@code accessMessageInMemoryMaxRatio} percent of physical memory of the max offset)
 * @param diskReads         messages read by queue offset since open that the same rule places on disk only
 */
public record StoreStats(long commitLogMinOffset, long commitLogMaxOffset, long commitLogFlushedOffset,
                         long dispatchedOffset, long commitLogSizeBytes, int commitLogSegmentCount,
                         double diskUsedPercent, boolean isReadOnly, long forceCount, long lastForceMicros,
                         long maxForceMicros, long pageCacheHitReads, long diskReads) {

    /** Share of reads served from the page cache by RocketMQ's rule, 1.0 when nothing was read. */
    public double pageCacheHitRatio() {
        long reads = pageCacheHitReads + diskReads;
        return reads == 0 ? 1.0 : (double) pageCacheHitReads / reads;
    }
}
