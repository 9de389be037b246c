package io.vrmq.store;

/** When an append counts as durable; RocketMQ's {@code flushDiskType} values. */
public enum FlushDiskType {
    /** The append returns before the force; a flusher forces dirty pages every {@code flushIntervalCommitLogMs}. */
    ASYNC_FLUSH,
    /** The append's durability future completes after a force that covers it (group commit). */
    SYNC_FLUSH
}
