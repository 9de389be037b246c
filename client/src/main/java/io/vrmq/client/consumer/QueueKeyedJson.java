package io.vrmq.client.consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.vertx.core.buffer.Buffer;
import io.vrmq.client.MessageQueue;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommandException;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Bodies with maps keyed by a MessageQueue in the form fastjson writes and reads them: the key is the queue's JSON
 * object itself, {@code {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:5}}} (ResetOffsetBody of 220,
 * the mqTable of ConsumerRunningInfo for 307). That is not standard JSON, so no JSON library reads or writes it; this
 * class joins the pieces by hand on writing (fields in alphabetical order, as fastjson sorts them) and scans the one
 * table it needs on reading. Stateless; any thread.
 */
public final class QueueKeyedJson {
    private QueueKeyedJson() {
    }

    /**
     * A body of {@code plainFields} (each written as ordinary JSON) and {@code queueTables} (each a map written with
     * object keys, entries ordered by queue).
     */
    public static Buffer body(RemotingJson json, Map<String, ?> plainFields,
                              Map<String, ? extends Map<MessageQueue, ?>> queueTables) {
        Map<String, String> fields = new TreeMap<>();
        plainFields.forEach((name, value) -> fields.put(name, write(json, value)));
        queueTables.forEach((name, table) -> fields.put(name, table(json, table)));
        StringJoiner body = new StringJoiner(",", "{", "}");
        fields.forEach((name, text) -> body.add(write(json, name) + ":" + text));
        return Buffer.buffer(body.toString());
    }

    /**
     * Reads the map {@code tableName} of queue → offset out of {@code body}; empty when the field is absent.
     *
     * @throws RemotingCommandException when the table is not in the object-keyed form
     */
    public static Map<MessageQueue, Long> readOffsetTable(RemotingJson json, String body, String tableName) {
        Map<MessageQueue, Long> table = new LinkedHashMap<>();
        String field = "\"" + tableName + "\"";
        int fieldAt = body.indexOf(field);
        if (fieldAt < 0) {
            return table;
        }
        Scanner scanner = new Scanner(body, fieldAt + field.length());
        scanner.expect(':');
        scanner.expect('{');
        if (scanner.tryConsume('}')) {
            return table;
        }
        do {
            String keyText = scanner.object();
            scanner.expect(':');
            long offset = scanner.number();
            table.put(readQueue(json, keyText), offset);
        } while (scanner.tryConsume(','));
        scanner.expect('}');
        return table;
    }

    private static MessageQueue readQueue(RemotingJson json, String keyText) {
        try {
            return json.mapper().readValue(keyText, MessageQueue.class);
        } catch (JsonProcessingException e) {
            throw new RemotingCommandException("bad MessageQueue key " + keyText + ": " + e.getOriginalMessage());
        }
    }

    private static String table(RemotingJson json, Map<MessageQueue, ?> table) {
        StringJoiner joined = new StringJoiner(",", "{", "}");
        new TreeMap<>(table).forEach((queue, value) -> joined.add(write(json, queue) + ":" + write(json, value)));
        return joined.toString();
    }

    private static String write(RemotingJson json, Object value) {
        try {
            return json.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** A cursor over the body text; skips whitespace before every token. */
    private static final class Scanner {
        private final String text;
        private int position;

        Scanner(String text, int position) {
            this.text = text;
            this.position = position;
        }

        void expect(char token) {
            if (!tryConsume(token)) {
                throw new RemotingCommandException("expected '" + token + "' at " + position + " of queue table");
            }
        }

        boolean tryConsume(char token) {
            skipWhitespace();
            if (position < text.length() && text.charAt(position) == token) {
                position++;
                return true;
            }
            return false;
        }

        /** One flat JSON object (a queue key), strings may hold braces. */
        String object() {
            skipWhitespace();
            int start = position;
            expect('{');
            boolean isInString = false;
            while (position < text.length()) {
                char next = text.charAt(position++);
                if (isInString) {
                    if (next == '\\') {
                        position++;
                    } else if (next == '"') {
                        isInString = false;
                    }
                } else if (next == '"') {
                    isInString = true;
                } else if (next == '}') {
                    return text.substring(start, position);
                }
            }
            throw new RemotingCommandException("unterminated queue key at " + start + " of queue table");
        }

        long number() {
            skipWhitespace();
            int start = position;
            if (position < text.length() && text.charAt(position) == '-') {
                position++;
            }
            while (position < text.length() && Character.isDigit(text.charAt(position))) {
                position++;
            }
            try {
                return Long.parseLong(text.substring(start, position));
            } catch (NumberFormatException e) {
                throw new RemotingCommandException("expected an offset at " + start + " of queue table");
            }
        }

        private void skipWhitespace() {
            while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
                position++;
            }
        }
    }
}
