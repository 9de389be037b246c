package io.vrmq.store;

/**
 * A snapshot of store figures for metrics.
 *
 * @param forceCount       CommitLog forces since open (with group commit, far fewer than SYNC_FLUSH appends)
 * @param lastForceMicros  duration of the latest CommitLog force
 * @param maxForceMicros   longest CommitLog force since open
 */
public record StoreStats(long commitLogMinOffset, long commitLogMaxOffset, long commitLogFlushedOffset,
                         long dispatchedOffset, long commitLogSizeBytes, int commitLogSegmentCount,
                         double diskUsedPercent, boolean isReadOnly, long forceCount, long lastForceMicros,
                         long maxForceMicros) {
}
