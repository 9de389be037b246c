package io.vrmq.store;

/** Outcome of an append; only PUT_OK stored anything. Names follow RocketMQ's PutMessageStatus. */
public enum AppendStatus {
    PUT_OK,
    /** Body over maxMessageSize, topic too long or empty, queue id negative, batch mixing queues... */
    MESSAGE_ILLEGAL,
    /** Properties over 32767 UTF-8 bytes (stored with an int16 length). */
    PROPERTIES_SIZE_EXCEEDED,
    /** The store is closed, read-only (disk past diskCriticalRatio) or a replica; the remark says which. */
    SERVICE_NOT_AVAILABLE,
    /** No room for a new segment file; nothing was written. */
    DISK_FULL
}
