package io.vrmq.broker.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the body of a trace message (what the official client's AsyncTraceDispatcher sends to the trace topic):
 * records separated by \u0002, fields by \u0001, in the 5.5.0 client's order per type:
 *
 * <pre>
 *  Pub             type time region group topic msgId tags keys storeHost bodyLength costTime msgType offsetMsgId
 *                  success [clientHost]          (older clients: without offsetMsgId, or without both)
 *  SubBefore       type time region group requestId msgId retryTimes keys
 *  SubAfter        type requestId msgId costTime success keys [contextCode [time group]]
 *  EndTransaction  type time region group topic msgId tags keys storeHost msgType transactionId state fromCheck
 *  Recall          type time region group topic msgId success
 * </pre>
 *
 * A record that does not fit its type's layout is skipped (a trace is best effort on the client too). Stateless.
 */
public final class TraceRecords {
    private static final String RECORD_SEPARATOR = "\u0002";
    private static final String FIELD_SEPARATOR = "\u0001";

    private TraceRecords() {
    }

    /** The records of {@code body}; {@code clientHost} is the trace message's born host. */
    public static List<TraceRecord> decode(String body, String clientHost) {
        List<TraceRecord> records = new ArrayList<>();
        if (body == null) {
            return records;
        }
        for (String text : body.split(RECORD_SEPARATOR)) {
            String[] fields = text.split(FIELD_SEPARATOR, -1);
            try {
                TraceRecord record = decodeOne(fields, clientHost);
                if (record != null) {
                    records.add(record);
                }
            } catch (RuntimeException e) {
                // NumberFormatException, ArrayIndexOutOfBoundsException: not a record of the known layouts
            }
        }
        return records;
    }

    private static TraceRecord decodeOne(String[] line, String clientHost) {
        Map<String, Object> fields = new LinkedHashMap<>();
        switch (line[0]) {
            case TraceRecord.PUB -> {
                fields.put("regionId", line[2]);
                fields.put("topic", line[4]);
                fields.put("tags", line[6]);
                fields.put("keys", line[7]);
                fields.put("storeHost", line[8]);
                fields.put("bodyLength", Integer.parseInt(line[9]));
                fields.put("costTimeMs", Integer.parseInt(line[10]));
                fields.put("msgType", MessageTypes.name(Integer.parseInt(line[11])));
                boolean hasOffsetMsgId = line.length >= 14 && !line[13].isEmpty();
                if (hasOffsetMsgId) {
                    fields.put("offsetMsgId", line[12]);
                }
                fields.put("success", Boolean.parseBoolean(hasOffsetMsgId ? line[13] : line[12]));
                String host = line.length >= 15 && !line[14].isEmpty() ? line[14] : clientHost;
                return new TraceRecord(TraceRecord.PUB, line[5], line[3], Long.parseLong(line[1]), null, host, fields);
            }
            case TraceRecord.SUB_BEFORE -> {
                fields.put("regionId", line[2]);
                fields.put("retryTimes", Integer.parseInt(line[6]));
                fields.put("keys", line[7]);
                return new TraceRecord(TraceRecord.SUB_BEFORE, line[5], line[3], Long.parseLong(line[1]), line[4],
                    clientHost, fields);
            }
            case TraceRecord.SUB_AFTER -> {
                fields.put("costTimeMs", Integer.parseInt(line[3]));
                fields.put("success", Boolean.parseBoolean(line[4]));
                fields.put("keys", line[5]);
                if (line.length >= 7 && !line[6].isEmpty()) {
                    fields.put("contextCode", Integer.parseInt(line[6]));
                }
                boolean hasTimeAndGroup = line.length >= 9 && !line[7].isEmpty();
                return new TraceRecord(TraceRecord.SUB_AFTER, line[2], hasTimeAndGroup ? line[8] : null,
                    hasTimeAndGroup ? Long.parseLong(line[7]) : -1, line[1], clientHost, fields);
            }
            case TraceRecord.END_TRANSACTION -> {
                fields.put("regionId", line[2]);
                fields.put("topic", line[4]);
                fields.put("tags", line[6]);
                fields.put("keys", line[7]);
                fields.put("storeHost", line[8]);
                fields.put("msgType", MessageTypes.name(Integer.parseInt(line[9])));
                fields.put("transactionId", line[10]);
                fields.put("transactionState", line[11]);
                fields.put("fromTransactionCheck", Boolean.parseBoolean(line[12]));
                return new TraceRecord(TraceRecord.END_TRANSACTION, line[5], line[3], Long.parseLong(line[1]), null,
                    clientHost, fields);
            }
            case TraceRecord.RECALL -> {
                fields.put("regionId", line[2]);
                fields.put("topic", line[4]);
                fields.put("success", Boolean.parseBoolean(line[6]));
                return new TraceRecord(TraceRecord.RECALL, line[5], line[3], Long.parseLong(line[1]), null,
                    clientHost, fields);
            }
            default -> {
                return null;
            }
        }
    }

    /** The client's MessageType enum, by ordinal. */
    private static final class MessageTypes {
        private static final String[] NAMES = {"Normal_Msg", "Trans_Msg_Half", "Trans_msg_Commit", "Delay_Msg",
            "Order_Msg"};

        static String name(int ordinal) {
            return ordinal >= 0 && ordinal < NAMES.length ? NAMES[ordinal] : Integer.toString(ordinal);
        }
    }
}
