package io.vrmq.broker.schedule;

import io.vrmq.store.MessageToStore;

/**
 * A held message that is due: its entry in the holding queue and the message to store in its real topic, or a null
 * message when the record is unusable (no REAL_TOPIC, gone from the CommitLog) and the entry is to be skipped.
 */
public record DueMessage(long queueOffset, long commitLogOffset, MessageToStore message) {
}
