package io.vrmq.client.producer;

import io.vertx.core.buffer.Buffer;

import java.util.Map;

/**
 * A send as it goes on the wire, prepared once and reused by every attempt (the same message id each time):
 * the body compressed or batch-encoded, the properties with UNIQ_KEY and WAIT, the sysFlag.
 *
 * @param msgId the producer's message id to report; comma-joined ids for a batch
 */
public record PreparedSend(String topic, Buffer body, int flag, Map<String, String> properties, int sysFlag,
                           boolean isBatch, String msgId) {
}
