package io.vrmq.broker.ha;

/** How a SYNC_MASTER send's wait for its slave ended. */
public enum SlaveAck {
    /** A slave has every byte of the message. */
    OK,
    /** No slave acknowledged within slaveTimeout (RocketMQ's FLUSH_SLAVE_TIMEOUT); the message is stored. */
    TIMEOUT,
    /** No slave connected, or the nearest is further behind than haMaxGapNotInSync; the message is stored. */
    NOT_AVAILABLE,
    /**
     * Controller mode: the SyncStateSet is smaller than minInSyncReplicas (RocketMQ's IN_SYNC_REPLICAS_NOT_ENOUGH,
     * answered with SYSTEM_ERROR "in-sync replicas not enough"). RocketMQ refuses before storing; the broker should
     * check {@code AutoSwitchHaService.hasEnoughInSyncReplicas()} before the append.
     */
    IN_SYNC_REPLICAS_NOT_ENOUGH
}
