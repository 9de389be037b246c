package io.vrmq.broker.processor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.vrmq.store.GetMessageResult;

/**
 * Where copied pull answers ({@link PulledRecords#copy}, HotPathConfig's {@code copyPulledRecords}) get their memory,
 * and how much of it they may hold: a pool of their own, so that its size is theirs alone. A copy lives until its
 * socket wrote it; a consumer that reads slowly (or a great many consumers) would otherwise keep direct memory
 * without bound, where the mapped slices of {@link PulledRecords#wrap} cost none. So a read copies only while the
 * pool holds less than {@code maxCopiedPullBytes}; past it the answer is the mapped slices (same bytes, more CPU):
 * nothing waits and nothing is refused.
 * <p>
 * The pool has two direct arenas (the readers and the dispatcher share them) and no thread caches, so a released
 * copy goes back to its arena at once; an arena's chunk is returned to the system once it empties, except the first
 * (Netty keeps one). Reader threads check and copy without a lock between them, so the pool may pass the bound by at
 * most one answer per reading thread. Thread-safe.
 */
final class PulledRecordCopies {
    private static final int DIRECT_ARENAS = 2;

    private final long maxBytes;
    private final PooledByteBufAllocator pool;

    /** @param maxBytes the most direct memory the copies' pool may hold; 0: never copy */
    PulledRecordCopies(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxCopiedPullBytes must be 0 or more: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.pool = maxBytes == 0 ? null : new PooledByteBufAllocator(true, 0, DIRECT_ARENAS,
            PooledByteBufAllocator.defaultPageSize(), PooledByteBufAllocator.defaultMaxOrder(), 0, 0, false);
    }

    /**
     * The records of {@code result} copied into one buffer the caller owns, or null: none found, or the pool at its
     * bound (the answer then wraps the mapped slices). Call where file access is allowed, as {@link PulledRecords#copy}.
     */
    ByteBuf copyOrNull(GetMessageResult result) {
        if (pool == null || result.messages().isEmpty()
            || pool.metric().usedDirectMemory() + result.totalBytes() > maxBytes) {
            return null;
        }
        return PulledRecords.copy(result, pool);
    }

    /** The direct memory the copies' pool holds now (its chunks, used or not). */
    long heldBytes() {
        return pool == null ? 0 : pool.metric().usedDirectMemory();
    }
}
