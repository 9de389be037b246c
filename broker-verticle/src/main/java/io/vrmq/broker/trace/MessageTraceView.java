package io.vrmq.broker.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A message's trace as the admin API shows it, from the trace records that name it: who published it (Pub), each
 * consumption attempt with its group, client, retry count, result and cost (a SubBefore with its SubAfter, paired by
 * request id), transaction ends and recalls. The store side (where and when it was stored) is added by the caller.
 * Stateless.
 */
public final class MessageTraceView {
    private MessageTraceView() {
    }

    public static Map<String, Object> of(String msgId, List<TraceRecord> records) {
        List<TraceRecord> own = records.stream().filter(record -> msgId.equals(record.msgId()))
            .sorted(Comparator.comparingLong(TraceRecord::timestampMs)).toList();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("msgId", msgId);
        view.put("published", ofType(own, TraceRecord.PUB));
        view.put("consumed", consumptions(own));
        view.put("transactionEnds", ofType(own, TraceRecord.END_TRANSACTION));
        view.put("recalls", ofType(own, TraceRecord.RECALL));
        return view;
    }

    private static List<Map<String, Object>> ofType(List<TraceRecord> records, String type) {
        return records.stream().filter(record -> record.type().equals(type)).map(MessageTraceView::flat).toList();
    }

    /** One entry per SubBefore, with its SubAfter's outcome; a SubAfter whose SubBefore is missing stands alone. */
    private static List<Map<String, Object>> consumptions(List<TraceRecord> records) {
        Map<String, TraceRecord> afters = new LinkedHashMap<>();
        for (TraceRecord record : records) {
            if (record.type().equals(TraceRecord.SUB_AFTER)) {
                afters.put(record.requestId(), record);
            }
        }
        List<Map<String, Object>> attempts = new ArrayList<>();
        for (TraceRecord before : records) {
            if (!before.type().equals(TraceRecord.SUB_BEFORE)) {
                continue;
            }
            Map<String, Object> attempt = new LinkedHashMap<>();
            attempt.put("group", before.groupName());
            attempt.put("clientHost", before.clientHost());
            attempt.put("requestId", before.requestId());
            attempt.put("beginTimestamp", before.timestampMs());
            attempt.put("retryTimes", before.fields().get("retryTimes"));
            TraceRecord after = afters.remove(before.requestId());
            putOutcome(attempt, after);
            attempts.add(attempt);
        }
        for (TraceRecord after : afters.values()) {
            Map<String, Object> attempt = new LinkedHashMap<>();
            attempt.put("group", after.groupName());
            attempt.put("clientHost", after.clientHost());
            attempt.put("requestId", after.requestId());
            putOutcome(attempt, after);
            attempts.add(attempt);
        }
        return attempts;
    }

    private static void putOutcome(Map<String, Object> attempt, TraceRecord after) {
        attempt.put("finished", after != null);
        if (after != null) {
            attempt.put("success", after.fields().get("success"));
            attempt.put("costTimeMs", after.fields().get("costTimeMs"));
            attempt.put("contextCode", after.fields().get("contextCode"));
            attempt.put("endTimestamp", after.timestampMs() >= 0 ? after.timestampMs() : null);
        }
    }

    private static Map<String, Object> flat(TraceRecord record) {
        Map<String, Object> flat = new LinkedHashMap<>();
        flat.put("group", record.groupName());
        flat.put("clientHost", record.clientHost());
        flat.put("timestamp", record.timestampMs());
        flat.putAll(record.fields());
        return flat;
    }
}
