package io.vrmq.store;

import java.util.concurrent.atomic.LongAdder;

/**
 * RocketMQ's guess whether a read is served from the page cache: a record more than
 * {@code accessMessageInMemoryMaxRatio} percent of physical memory behind the CommitLog's max offset is taken to be
 * on disk only (the cache holds roughly the newest bytes). It drives the "pull from slave" suggestion and counts
 * reads each way. Thread-safe: any reader thread.
 */
final class PageCacheEstimate {
    private final long cachedBytes;
    private final LongAdder pageCacheHitReads = new LongAdder();
    private final LongAdder diskReads = new LongAdder();

    PageCacheEstimate(long physicalMemoryBytes, int accessMessageInMemoryMaxRatio) {
        this.cachedBytes = physicalMemoryBytes / 100 * accessMessageInMemoryMaxRatio
                + physicalMemoryBytes % 100 * accessMessageInMemoryMaxRatio / 100;   // no overflow for any memory size
    }

    /** True when the record at {@code commitLogOffset} is too far behind {@code maxOffset} to be in the cache. */
    boolean isOnDisk(long maxOffset, long commitLogOffset) {
        return maxOffset - commitLogOffset > cachedBytes;
    }

    /** Counts one message read at {@code commitLogOffset}; returns whether it counted as a disk read. */
    boolean countRead(long maxOffset, long commitLogOffset) {
        boolean onDisk = isOnDisk(maxOffset, commitLogOffset);
        (onDisk ? diskReads : pageCacheHitReads).increment();
        return onDisk;
    }

    long pageCacheHitReads() {
        return pageCacheHitReads.sum();
    }

    long diskReads() {
        return diskReads.sum();
    }
}
