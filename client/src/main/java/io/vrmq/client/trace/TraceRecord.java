package io.vrmq.client.trace;

import java.util.List;

/**
 * One encoded trace record, waiting to be sent.
 *
 * @param text        the record in the official client's layout, ending with the record separator
 * @param tracedTopic the topic of the traced message: records are batched per traced topic, as the official
 *                    dispatcher batches them
 * @param keys        the keys the trace message must be indexed under: the traced message's id, then its own keys
 */
public record TraceRecord(String text, String tracedTopic, List<String> keys) {
    public TraceRecord {
        keys = List.copyOf(keys);
    }
}
