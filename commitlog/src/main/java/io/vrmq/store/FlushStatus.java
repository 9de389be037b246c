package io.vrmq.store;

/** When an appended message became durable. */
public enum FlushStatus {
    /** SYNC_FLUSH: forced to disk. ASYNC_FLUSH: accepted (will be forced by the interval flusher). */
    FLUSH_OK,
    /** SYNC_FLUSH: not forced within syncFlushTimeoutMs; the message is stored but its durability is unknown. */
    FLUSH_DISK_TIMEOUT
}
