package io.vrmq.client;

/** What an orderly listener says: consumed, or hold the queue a moment and deliver the same messages again. */
public enum ConsumeOrderlyStatus {
    SUCCESS,
    SUSPEND_CURRENT_QUEUE_A_MOMENT
}
