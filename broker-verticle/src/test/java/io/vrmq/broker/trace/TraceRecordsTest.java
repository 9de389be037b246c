package io.vrmq.broker.trace;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Decoding the official client's trace data and building the admin API's view of one message from it. */
class TraceRecordsTest {
    private static final char FIELD = '\u0001';
    private static final char RECORD = '\u0002';

    private static String record(Object... fields) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            text.append(fields[i]).append(i == fields.length - 1 ? RECORD : FIELD);
        }
        return text.toString();
    }

    private static final String PUB = record("Pub", 1000, "DefaultRegion", "PG", "T", "M1", "TagA", "k1",
        "127.0.0.1:10911", 6, 3, 0, "7F00000100002A9F0000000000000000", true);
    private static final String SUB_BEFORE = record("SubBefore", 2000, "DefaultRegion", "CG", "R1", "M1", 0, "k1");
    /** The 5.5.0 client writes the SubAfter's last field without a separator after it, then the record separator. */
    private static final String SUB_AFTER = "SubAfter" + FIELD + "R1" + FIELD + "M1" + FIELD + 7 + FIELD + true + FIELD
        + "k1" + FIELD + 0 + FIELD + 2007 + FIELD + "CG" + RECORD;

    @Test
    void decodesEachTypeOfTheFiveFiveClient() {
        List<TraceRecord> records = TraceRecords.decode(PUB + SUB_BEFORE + SUB_AFTER, "10.0.0.1");
        assertEquals(List.of("Pub", "SubBefore", "SubAfter"), records.stream().map(TraceRecord::type).toList());
        TraceRecord pub = records.get(0);
        assertEquals("M1", pub.msgId());
        assertEquals("PG", pub.groupName());
        assertEquals(1000, pub.timestampMs());
        assertEquals("T", pub.fields().get("topic"));
        assertEquals(true, pub.fields().get("success"));
        assertEquals("Normal_Msg", pub.fields().get("msgType"));
        assertEquals("10.0.0.1", pub.clientHost());
        TraceRecord after = records.get(2);
        assertEquals("R1", after.requestId());
        assertEquals("CG", after.groupName());
        assertEquals(2007, after.timestampMs());
        assertEquals(7, after.fields().get("costTimeMs"));
    }

    @Test
    void aRecordThatFitsNoLayoutIsSkipped() {
        List<TraceRecord> records = TraceRecords.decode(record("Pub", "not-a-time") + record("Unknown", 1) + PUB,
            "h");
        assertEquals(1, records.size());
    }

    @Test
    void theViewPairsEachSubBeforeWithItsSubAfterAndIgnoresOtherMessages() {
        String other = record("SubBefore", 2100, "DefaultRegion", "CG", "R2", "M2", 0, "");
        List<TraceRecord> records = TraceRecords.decode(SUB_AFTER + other + PUB + SUB_BEFORE, "h");
        Map<String, Object> view = MessageTraceView.of("M1", records);
        List<?> published = (List<?>) view.get("published");
        assertEquals(1, published.size());
        List<?> consumed = (List<?>) view.get("consumed");
        assertEquals(1, consumed.size());
        Map<?, ?> attempt = (Map<?, ?>) consumed.get(0);
        assertEquals("CG", attempt.get("group"));
        assertEquals(true, attempt.get("finished"));
        assertEquals(true, attempt.get("success"));
        assertEquals(7, attempt.get("costTimeMs"));
        assertEquals(2000L, attempt.get("beginTimestamp"));
    }

    @Test
    void aConsumptionStillRunningHasNoOutcome() {
        Map<String, Object> view = MessageTraceView.of("M1", TraceRecords.decode(SUB_BEFORE, "h"));
        Map<?, ?> attempt = (Map<?, ?>) ((List<?>) view.get("consumed")).get(0);
        assertEquals(false, attempt.get("finished"));
        assertNull(attempt.get("success"));
        assertTrue(((List<?>) view.get("published")).isEmpty());
    }
}
