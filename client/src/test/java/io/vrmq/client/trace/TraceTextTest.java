package io.vrmq.client.trace;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The record layouts byte for byte as rocketmq-client 5.5.0's TraceDataEncoder writes them (\u0001 between fields,
 * \u0002 after each record, absent tags and keys as "null"), and the keys a trace message is indexed under.
 */
class TraceTextTest {
    private static final String F = "\u0001";
    private static final String R = "\u0002";

    @Test
    void aPubRecordHasTheOfficialFourteenFields() {
        TraceRecord record = TraceText.pub(new TraceText.Pub(1700000000123L, "DefaultRegion", "PG", "T",
            "7F0000010001000000000000000A", "TagA", "k1 k2", "127.0.0.1:10911", 6, 3, TraceText.MSG_TYPE_DELAY,
            "7F00000100002A9F0000000000000000", true));
        assertEquals("Pub" + F + "1700000000123" + F + "DefaultRegion" + F + "PG" + F + "T" + F
            + "7F0000010001000000000000000A" + F + "TagA" + F + "k1 k2" + F + "127.0.0.1:10911" + F + "6" + F + "3"
            + F + "3" + F + "7F00000100002A9F0000000000000000" + F + "true" + R, record.text());
        assertEquals("T", record.tracedTopic());
        assertEquals(List.of("7F0000010001000000000000000A", "k1", "k2"), record.keys());
    }

    @Test
    void absentTagsAndKeysAreWrittenAsNullAndOnlyTheIdIsAKey() {
        TraceRecord record = TraceText.pub(new TraceText.Pub(1L, "r", "PG", "T", "ID", null, null, "h:1", 0, 0,
            TraceText.MSG_TYPE_NORMAL, "OFF", false));
        assertEquals("Pub" + F + "1" + F + "r" + F + "PG" + F + "T" + F + "ID" + F + "null" + F + "null" + F + "h:1"
            + F + "0" + F + "0" + F + "0" + F + "OFF" + F + "false" + R, record.text());
        assertEquals(List.of("ID"), record.keys());
    }

    @Test
    void subBeforeAndSubAfterWriteOneRecordPerMessageWithTheSameRequestId() {
        List<TraceText.Consumed> messages = List.of(new TraceText.Consumed("ID1", 0, "k1"),
            new TraceText.Consumed("ID2", 2, null));
        List<TraceRecord> before = TraceText.subBefore(100L, "DefaultRegion", "CG", "REQ", "T", messages);
        assertEquals(List.of(
            "SubBefore" + F + "100" + F + "DefaultRegion" + F + "CG" + F + "REQ" + F + "ID1" + F + "0" + F + "k1" + R,
            "SubBefore" + F + "100" + F + "DefaultRegion" + F + "CG" + F + "REQ" + F + "ID2" + F + "2" + F + "null"
                + R), before.stream().map(TraceRecord::text).toList());

        List<TraceRecord> after = TraceText.subAfter("REQ", 25, false, TraceText.RETURN_FAILED, 150L, "CG", "T",
            messages);
        assertEquals(List.of(
            "SubAfter" + F + "REQ" + F + "ID1" + F + "25" + F + "false" + F + "k1" + F + "4" + F + "150" + F + "CG" + R,
            "SubAfter" + F + "REQ" + F + "ID2" + F + "25" + F + "false" + F + "null" + F + "4" + F + "150" + F + "CG"
                + R), after.stream().map(TraceRecord::text).toList());
        assertEquals(List.of("ID1", "k1"), after.get(0).keys());
        assertEquals(List.of("ID2"), after.get(1).keys());
    }

    @Test
    void delayAndTimerPropertiesMakeADelayMessageAndTranMsgAHalfMessage() {
        assertEquals(TraceText.MSG_TYPE_NORMAL, ProducerTrace.msgType(java.util.Map.of("TAGS", "A")));
        assertEquals(TraceText.MSG_TYPE_DELAY, ProducerTrace.msgType(java.util.Map.of("DELAY", "3")));
        assertEquals(TraceText.MSG_TYPE_DELAY, ProducerTrace.msgType(java.util.Map.of("TIMER_DELAY_SEC", "5")));
        assertEquals(TraceText.MSG_TYPE_TRANS_HALF, ProducerTrace.msgType(java.util.Map.of("TRAN_MSG", "true")));
        assertEquals(TraceText.MSG_TYPE_DELAY, ProducerTrace.msgType(java.util.Map.of("TRAN_MSG", "true",
            "__STARTDELIVERTIME", "1")));
    }
}
