package io.vrmq.broker.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.json.RemotingJson;

import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Writes the bodies whose {@code offsetTable} is keyed by a MessageQueue (ConsumeStats for 208, TopicStatsTable for
 * 202, ResetOffsetBody for 220/222) in the form fastjson gives them and the official client parses back: the key is
 * the queue's JSON object itself, not a string:
 * {@code {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:5}}}.
 * That is not standard JSON, so no JSON library writes it; this class joins the pieces by hand, with every field in
 * alphabetical order as fastjson sorts them. Stateless; any thread.
 */
public final class QueueKeyedJson {
    private static final String TABLE_FIELD = "offsetTable";

    private QueueKeyedJson() {
    }

    /**
     * The body: {@code plainFields} (name → value, each written as ordinary JSON) plus {@code offsetTable} written
     * with object keys, entries ordered by queue.
     */
    public static Buffer body(RemotingJson json, Map<String, ?> plainFields, Map<MessageQueue, ?> offsetTable) {
        Map<String, String> fields = new TreeMap<>();
        plainFields.forEach((name, value) -> fields.put(name, write(json, value)));
        fields.put(TABLE_FIELD, table(json, offsetTable));
        StringJoiner body = new StringJoiner(",", "{", "}");
        fields.forEach((name, text) -> body.add(write(json, name) + ":" + text));
        return Buffer.buffer(body.toString());
    }

    private static String table(RemotingJson json, Map<MessageQueue, ?> offsetTable) {
        StringJoiner table = new StringJoiner(",", "{", "}");
        new TreeMap<>(offsetTable).forEach((queue, value) -> table.add(write(json, queue) + ":" + write(json, value)));
        return table.toString();
    }

    private static String write(RemotingJson json, Object value) {
        try {
            return json.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
