package io.vrmq.client;

/**
 * Where a sent message landed.
 *
 * @param msgId       the producer's message id (UNIQ_KEY; comma-joined for a batch), what queries by id use
 * @param offsetMsgId the broker's id of the stored record (store host + commit-log offset)
 * @param queueOffset entry number in the queue (the first one for a batch)
 */
public record SendResult(SendStatus status, String msgId, String offsetMsgId, MessageQueue messageQueue,
                         long queueOffset) {
}
