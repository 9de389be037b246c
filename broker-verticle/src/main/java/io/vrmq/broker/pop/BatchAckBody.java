package io.vrmq.broker.pop;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.json.RemotingJson;

import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.List;

/**
 * BATCH_ACK_MESSAGE's body (RocketMQ's BatchAckMessageRequestBody): {@code {"brokerName":..,"acks":[BatchAck..]}},
 * each BatchAck under its short names (long names accepted too): {@code c} group, {@code t} topic, {@code r} retry
 * marker, {@code so} start offset, {@code q} queue, {@code rq} revive queue, {@code pt} pop time, {@code it}
 * invisible time, {@code b} the acked offsets as a BitSet (bit i = start offset + i), base64 of its little-endian
 * bytes. Immutable.
 */
record BatchAckBody(String brokerName, List<Entry> acks) {

    /** One pop's acks. */
    record Entry(String consumerGroup, String topic, String retryMarker, long startOffset, int queueId,
                 int reviveQueueId, long popTime, long invisibleTime, BitSet offsets) {
    }

    /** Null when the body is absent or holds no acks (RocketMQ answers NO_MESSAGE then). */
    static BatchAckBody decode(RemotingJson json, Buffer body) {
        if (body == null || body.length() == 0) {
            return null;
        }
        JsonNode root = json.decode(body, JsonNode.class);
        JsonNode acks = root.path("acks");
        if (!acks.isArray() || acks.isEmpty()) {
            return null;
        }
        List<Entry> entries = new ArrayList<>(acks.size());
        for (JsonNode ack : acks) {
            entries.add(new Entry(text(ack, "c", "consumerGroup"), text(ack, "t", "topic"), text(ack, "r", "retry"),
                number(ack, "so", "startOffset"), (int) number(ack, "q", "queueId"),
                (int) number(ack, "rq", "reviveQueueId"), number(ack, "pt", "popTime"),
                number(ack, "it", "invisibleTime"), bits(text(ack, "b", "bitSet"))));
        }
        return new BatchAckBody(root.path("brokerName").asText(null), entries);
    }

    private static String text(JsonNode node, String name, String longName) {
        JsonNode value = node.hasNonNull(name) ? node.get(name) : node.get(longName);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static long number(JsonNode node, String name, String longName) {
        JsonNode value = node.hasNonNull(name) ? node.get(name) : node.get(longName);
        return value == null ? 0 : value.asLong();
    }

    private static BitSet bits(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return new BitSet();
        }
        try {
            return BitSet.valueOf(Base64.getDecoder().decode(base64));
        } catch (IllegalArgumentException e) {
            return new BitSet();
        }
    }
}
