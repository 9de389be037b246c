package io.vrmq.broker.trace;

import java.util.Map;

/**
 * One record of the official client's trace data, decoded.
 *
 * @param type        Pub, SubBefore, SubAfter, EndTransaction or Recall
 * @param msgId       the traced message's id (its UNIQ_KEY, what the client calls msgId)
 * @param groupName   producer group (Pub, EndTransaction, Recall) or consumer group (SubBefore, SubAfter)
 * @param timestampMs when the client recorded it (-1 when the record has none: SubAfter of old clients)
 * @param requestId   pairs a SubBefore with its SubAfter; null for the other types
 * @param clientHost  the host that sent the trace message (its born host)
 * @param fields      the type's other fields by the names of RocketMQ's TraceView/TraceBean
 */
public record TraceRecord(String type, String msgId, String groupName, long timestampMs, String requestId,
                          String clientHost, Map<String, Object> fields) {
    public static final String PUB = "Pub";
    public static final String SUB_BEFORE = "SubBefore";
    public static final String SUB_AFTER = "SubAfter";
    public static final String END_TRANSACTION = "EndTransaction";
    public static final String RECALL = "Recall";
}
