package io.vrmq.broker.pop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON bodies of {@link ReviveRecord}s. A pop and an ack use RocketMQ's PopCheckPoint and AckMsg field names
 * (so {@code mqadmin queryMsgByOffset} on the revive topic shows what RocketMQ would):
 * <pre>
 *  tag    fields
 *  ck     c group, t topic, q queueId, so startOffset, pt popTime, it invisibleTime, n count, d offset diffs,
 *         bm ack bits (always 0: acks are their own records), sp suspend, bn brokerName; ours: no next pop offset
 *  ack    c, t, q, so, pt, ao acked offset, bn
 *  bAck   c, t, q, so, pt, aol acked offsets, bn
 *  rv     c, t, q, so, pt                              (ours: the pop was revived)
 *  ock    c, t, q, pt, it, d offsets, a attemptId, oc {offset: times handed out before}, bn   (ours)
 *  oack   c, t, q, pt, ao, co committed offset                                              (ours)
 *  ochg   c, t, q, pt, ao, nv next visible time                                             (ours)
 * </pre>
 * Thread-safe (the mapper is).
 */
final class ReviveRecordCodec {
    private final ObjectMapper mapper;

    ReviveRecordCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    byte[] encode(ReviveRecord record) {
        ObjectNode body = mapper.createObjectNode();
        if (record instanceof ReviveRecord.Pop pop) {
            queue(body, pop.queue()).put("so", pop.startOffset()).put("pt", pop.popTime())
                .put("it", pop.invisibleTime()).put("n", pop.diffs().length).put("bm", 0)
                .put("sp", pop.isSuspend()).put("bn", pop.brokerName()).put("no", pop.nextOffset());
            ArrayNode diffs = body.putArray("d");
            for (int diff : pop.diffs()) {
                diffs.add(diff);
            }
        } else if (record instanceof ReviveRecord.Ack ack) {
            queue(body, ack.queue()).put("so", ack.startOffset()).put("pt", ack.popTime()).put("bn", ack.brokerName());
            if (ack.offsets().size() == 1) {
                body.put("ao", ack.offsets().get(0));
            } else {
                ArrayNode offsets = body.put("ao", -1).putArray("aol");
                ack.offsets().forEach(offsets::add);
            }
        } else if (record instanceof ReviveRecord.Revived revived) {
            queue(body, revived.queue()).put("so", revived.startOffset()).put("pt", revived.popTime());
        } else if (record instanceof ReviveRecord.OrderPop pop) {
            encodeOrderPop(body, pop);
        } else if (record instanceof ReviveRecord.OrderAck ack) {
            queue(body, ack.queue()).put("pt", ack.popTime()).put("ao", ack.offset()).put("co", ack.committedOffset());
        } else if (record instanceof ReviveRecord.OrderChange change) {
            queue(body, change.queue()).put("pt", change.popTime()).put("ao", change.offset())
                .put("nv", change.nextVisibleMs());
        }
        try {
            return mapper.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a " + record.tag() + " revive record", e);
        }
    }

    private static void encodeOrderPop(ObjectNode body, ReviveRecord.OrderPop pop) {
        queue(body, pop.queue()).put("pt", pop.popTime()).put("it", pop.invisibleTime()).put("bn", pop.brokerName());
        if (pop.attemptId() != null) {
            body.put("a", pop.attemptId());
        }
        ArrayNode offsets = body.putArray("d");
        for (long offset : pop.offsets()) {
            offsets.add(offset);
        }
        ObjectNode counts = body.putObject("oc");
        pop.consumedCounts().forEach((offset, count) -> counts.put(Long.toString(offset), count));
    }

    /** The record, or null for a tag that is none of ours or a body that does not parse (the caller logs it). */
    ReviveRecord decode(String tag, byte[] body) {
        JsonNode json;
        try {
            json = mapper.readTree(body);
        } catch (IOException e) {
            return null;
        }
        if (json == null || !json.isObject() || !json.hasNonNull("c") || !json.hasNonNull("t")) {
            return null;
        }
        QueueKey queue = new QueueKey(json.get("c").asText(), json.get("t").asText(), json.path("q").asInt());
        int count = json.path("d").size();
        if (("ck".equals(tag) || "ock".equals(tag)) && (count == 0 || count > Integer.SIZE)) {
            return null;
        }
        long popTime = json.path("pt").asLong();
        return switch (tag) {
            case "ck" -> new ReviveRecord.Pop(queue, json.path("so").asLong(), popTime, json.path("it").asLong(),
                intArray(json.path("d")), json.path("no").asLong(-1), json.path("sp").asBoolean(false),
                json.path("bn").asText(""));
            case "ack" -> new ReviveRecord.Ack(queue, json.path("so").asLong(), popTime,
                List.of(json.path("ao").asLong()), json.path("bn").asText(""));
            case "bAck" -> new ReviveRecord.Ack(queue, json.path("so").asLong(), popTime,
                longList(json.path("aol")), json.path("bn").asText(""));
            case "rv" -> new ReviveRecord.Revived(queue, json.path("so").asLong(), popTime);
            case "ock" -> new ReviveRecord.OrderPop(queue, json.hasNonNull("a") ? json.get("a").asText() : null,
                popTime, json.path("it").asLong(), longArray(json.path("d")), counts(json.path("oc")),
                json.path("bn").asText(""));
            case "oack" -> new ReviveRecord.OrderAck(queue, popTime, json.path("ao").asLong(),
                json.path("co").asLong());
            case "ochg" -> new ReviveRecord.OrderChange(queue, popTime, json.path("ao").asLong(),
                json.path("nv").asLong());
            default -> null;
        };
    }

    /**
     * The UNIQ_KEY of a record, RocketMQ's genCkUniqueId / genAckUniqueId form for the kinds it has
     * ({@code topic@queueId@offset@group@popTime@brokerName@tag}).
     */
    static String uniqueKey(ReviveRecord record, String brokerName) {
        if (record instanceof ReviveRecord.Pop pop) {
            return key(pop.queue(), pop.startOffset(), pop.popTime(), brokerName, pop.tag());
        }
        if (record instanceof ReviveRecord.Ack ack) {
            long offset = ack.offsets().size() == 1 ? ack.offsets().get(0) : ack.startOffset();
            return key(ack.queue(), offset, ack.popTime(), brokerName, ack.tag());
        }
        if (record instanceof ReviveRecord.Revived revived) {
            return key(revived.queue(), revived.startOffset(), revived.popTime(), brokerName, revived.tag());
        }
        if (record instanceof ReviveRecord.OrderPop pop) {
            return key(pop.queue(), pop.offsets()[0], pop.popTime(), brokerName, pop.tag());
        }
        if (record instanceof ReviveRecord.OrderAck ack) {
            return key(ack.queue(), ack.offset(), ack.popTime(), brokerName, ack.tag());
        }
        ReviveRecord.OrderChange change = (ReviveRecord.OrderChange) record;
        return key(change.queue(), change.offset(), change.popTime(), brokerName, change.tag());
    }

    private static String key(QueueKey queue, long offset, long popTime, String brokerName, String tag) {
        return queue.topic() + "@" + queue.queueId() + "@" + offset + "@" + queue.group() + "@" + popTime + "@"
            + brokerName + "@" + tag;
    }

    private static ObjectNode queue(ObjectNode body, QueueKey queue) {
        return body.put("c", queue.group()).put("t", queue.topic()).put("q", queue.queueId());
    }

    private static int[] intArray(JsonNode array) {
        int[] values = new int[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asInt();
        }
        return values;
    }

    private static long[] longArray(JsonNode array) {
        long[] values = new long[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asLong();
        }
        return values;
    }

    private static List<Long> longList(JsonNode array) {
        List<Long> values = new ArrayList<>(array.size());
        array.forEach(value -> values.add(value.asLong()));
        return values;
    }

    private static Map<Long, Integer> counts(JsonNode object) {
        Map<Long, Integer> counts = new HashMap<>();
        object.fields().forEachRemaining(entry -> counts.put(Long.parseLong(entry.getKey()),
            entry.getValue().asInt()));
        return counts;
    }
}
