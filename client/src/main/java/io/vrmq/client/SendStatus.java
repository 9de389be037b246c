package io.vrmq.client;

/** RocketMQ's send outcome. Every status but SEND_OK still means the message was stored. */
public enum SendStatus {
    SEND_OK,
    FLUSH_DISK_TIMEOUT,
    FLUSH_SLAVE_TIMEOUT,
    SLAVE_NOT_AVAILABLE
}
