package io.vrmq.client.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * The official client's trace record layouts (TraceDataEncoder in rocketmq-client 5.5.0), which the broker's admin
 * API and {@code mqadmin queryMsgTraceById} parse: fields joined by \u0001, each record ended by \u0002. Absent tags
 * and keys are written as {@code null}, as the official client writes them. Stateless.
 */
public final class TraceText {
    /*  record      fields, in order (\u0001 between them, \u0002 after the last)
     *  Pub         "Pub", timestamp, regionId, group, topic, msgId, tags, keys, storeHost, bodyLength, costTime,
     *              msgType ordinal, offsetMsgId, success                                                  (14)
     *  SubBefore   "SubBefore", timestamp, regionId, group, requestId, msgId, retryTimes, keys               (8)
     *  SubAfter    "SubAfter", requestId, msgId, costTime, success, keys, contextCode, timestamp, group     (9)
     *  timestamp: ms when the send attempt or the listener started (SubAfter: when it ended); costTime: ms of the
     *  attempt, or of the listener divided by the batch size; one record per message of a consumed batch. */
    /** TraceConstants.CONTENT_SPLITOR. */
    public static final char FIELD_SEPARATOR = '\u0001';
    /** TraceConstants.FIELD_SPLITOR. */
    public static final char RECORD_SEPARATOR = '\u0002';
    /** The region the official client reports when the broker names none (MixAll.DEFAULT_TRACE_REGION_ID). */
    public static final String DEFAULT_REGION = "DefaultRegion";

    /** Ordinals of the official client's MessageType. */
    public static final int MSG_TYPE_NORMAL = 0;
    public static final int MSG_TYPE_TRANS_HALF = 1;
    public static final int MSG_TYPE_DELAY = 3;

    /** Ordinals of the official client's ConsumeReturnType, the SubAfter context code. */
    public static final int RETURN_SUCCESS = 0;
    public static final int RETURN_EXCEPTION = 2;
    public static final int RETURN_NULL = 3;
    public static final int RETURN_FAILED = 4;

    private TraceText() {
    }

    /** What a Pub record says about one successful send attempt. */
    public record Pub(long timestampMs, String regionId, String group, String topic, String msgId, String tags,
                      String keys, String storeHost, int bodyBytes, int costMs, int msgType, String offsetMsgId,
                      boolean isSuccess) {
    }

    /** One consumed message of a SubBefore/SubAfter pair. */
    public record Consumed(String msgId, int retryTimes, String keys) {
    }

    public static TraceRecord pub(Pub pub) {
        String text = join(TraceType.PUB, pub.timestampMs(), pub.regionId(), pub.group(), pub.topic(), pub.msgId(),
            pub.tags(), pub.keys(), pub.storeHost(), pub.bodyBytes(), pub.costMs(), pub.msgType(), pub.offsetMsgId(),
            pub.isSuccess()) + RECORD_SEPARATOR;
        return new TraceRecord(text, pub.topic(), keysOf(pub.msgId(), pub.keys()));
    }

    /** One SubBefore record per message, all with the batch's request id and start time. */
    public static List<TraceRecord> subBefore(long timestampMs, String regionId, String group, String requestId,
                                              String topic, List<Consumed> messages) {
        List<TraceRecord> records = new ArrayList<>(messages.size());
        for (Consumed message : messages) {
            String text = join(TraceType.SUB_BEFORE, timestampMs, regionId, group, requestId, message.msgId(),
                message.retryTimes(), message.keys()) + RECORD_SEPARATOR;
            records.add(new TraceRecord(text, topic, keysOf(message.msgId(), message.keys())));
        }
        return records;
    }

    /**
     * One SubAfter record per message, in the layout of a LOCAL access channel (with time and group at the end; the
     * official client leaves the last field without a separator before the record separator).
     */
    public static List<TraceRecord> subAfter(String requestId, int costMs, boolean isSuccess, int contextCode,
                                             long timestampMs, String group, String topic, List<Consumed> messages) {
        List<TraceRecord> records = new ArrayList<>(messages.size());
        for (Consumed message : messages) {
            String text = join(TraceType.SUB_AFTER, requestId, message.msgId(), costMs, isSuccess, message.keys(),
                contextCode, timestampMs, group) + RECORD_SEPARATOR;
            records.add(new TraceRecord(text, topic, keysOf(message.msgId(), message.keys())));
        }
        return records;
    }

    /** The message id, then its space-separated keys (MessageConst.KEY_SEPARATOR). */
    static List<String> keysOf(String msgId, String keys) {
        List<String> all = new ArrayList<>();
        all.add(msgId);
        if (keys != null && !keys.isEmpty()) {
            for (String key : keys.split(" ")) {
                if (!key.isEmpty()) {
                    all.add(key);
                }
            }
        }
        return all;
    }

    /** String.valueOf for each field, so a null prints as "null" the way StringBuilder.append prints it. */
    private static String join(Object... fields) {
        StringBuilder text = new StringBuilder(128);
        for (int index = 0; index < fields.length; index++) {
            if (index > 0) {
                text.append(FIELD_SEPARATOR);
            }
            text.append(fields[index]);
        }
        return text.toString();
    }

    /** The official TraceType names, as they lead each record. */
    private static final class TraceType {
        static final String PUB = "Pub";
        static final String SUB_BEFORE = "SubBefore";
        static final String SUB_AFTER = "SubAfter";
    }
}
