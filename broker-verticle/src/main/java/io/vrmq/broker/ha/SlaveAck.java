package io.vrmq.broker.ha;

/** How a SYNC_MASTER send's wait for its slave ended. */
public enum SlaveAck {
    /** A slave has every byte of the message. */
    OK,
    /** No slave acknowledged within slaveTimeout (RocketMQ's FLUSH_SLAVE_TIMEOUT); the message is stored. */
    TIMEOUT,
    /** No slave connected, or the nearest is further behind than haMaxGapNotInSync; the message is stored. */
    NOT_AVAILABLE
}
