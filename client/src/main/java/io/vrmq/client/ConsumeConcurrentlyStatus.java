package io.vrmq.client;

/** What a concurrent listener says about a batch: consumed, or send it back for a later retry. */
public enum ConsumeConcurrentlyStatus {
    CONSUME_SUCCESS,
    RECONSUME_LATER
}
