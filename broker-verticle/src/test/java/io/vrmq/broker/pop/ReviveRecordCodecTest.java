package io.vrmq.broker.pop;

import io.vrmq.remoting.json.RemotingJson;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Revive-log bodies: every kind round-trips, RocketMQ's field names are used, junk is not a record. */
class ReviveRecordCodecTest {
    private static final QueueKey QUEUE = new QueueKey("CG", "T", 3);
    private final ReviveRecordCodec codec = new ReviveRecordCodec(new RemotingJson().mapper());

    @Test
    void aPopCheckpointUsesRocketMqsFieldNamesAndRoundTrips() {
        ReviveRecord.Pop pop = new ReviveRecord.Pop(QUEUE, 10, 1_000, 60_000, new int[] {0, 2, 5}, 16, true, "b");
        String json = new String(codec.encode(pop), StandardCharsets.UTF_8);
        for (String field : List.of("\"c\":\"CG\"", "\"t\":\"T\"", "\"q\":3", "\"so\":10", "\"pt\":1000",
            "\"it\":60000", "\"n\":3", "\"d\":[0,2,5]", "\"sp\":true", "\"bn\":\"b\"", "\"no\":16")) {
            assertTrue(json.contains(field), json + " lacks " + field);
        }
        ReviveRecord.Pop back = assertInstanceOf(ReviveRecord.Pop.class, codec.decode("ck", codec.encode(pop)));
        assertEquals(QUEUE, back.queue());
        assertArrayEquals(pop.diffs(), back.diffs());
        assertEquals(16, back.nextOffset());
        assertTrue(back.isSuspend());
    }

    @Test
    void acksRevivedMarksAndOrderlyRecordsRoundTrip() {
        ReviveRecord.Ack one = new ReviveRecord.Ack(QUEUE, 10, 1_000, List.of(12L), "b");
        ReviveRecord.Ack batch = new ReviveRecord.Ack(QUEUE, 10, 1_000, List.of(10L, 15L), "b");
        assertEquals("ack", one.tag());
        assertEquals("bAck", batch.tag());
        assertEquals(List.of(12L), ((ReviveRecord.Ack) codec.decode("ack", codec.encode(one))).offsets());
        assertEquals(List.of(10L, 15L), ((ReviveRecord.Ack) codec.decode("bAck", codec.encode(batch))).offsets());
        ReviveRecord.Revived revived = (ReviveRecord.Revived) codec.decode("rv",
            codec.encode(new ReviveRecord.Revived(QUEUE, 10, 1_000)));
        assertEquals(10, revived.startOffset());
        ReviveRecord.OrderPop order = (ReviveRecord.OrderPop) codec.decode("ock", codec.encode(
            new ReviveRecord.OrderPop(QUEUE, "a-1", 5, 9, new long[] {4, 5}, Map.of(4L, 2), "b")));
        assertEquals("a-1", order.attemptId());
        assertArrayEquals(new long[] {4, 5}, order.offsets());
        assertEquals(Map.of(4L, 2), order.consumedCounts());
        ReviveRecord.OrderAck ack = (ReviveRecord.OrderAck) codec.decode("oack", codec.encode(
            new ReviveRecord.OrderAck(QUEUE, 5, 4, 5)));
        assertEquals(5, ack.committedOffset());
        ReviveRecord.OrderChange change = (ReviveRecord.OrderChange) codec.decode("ochg", codec.encode(
            new ReviveRecord.OrderChange(QUEUE, 5, 4, 77)));
        assertEquals(77, change.nextVisibleMs());
    }

    @Test
    void anUnknownTagOrABadBodyIsNoRecord() {
        byte[] pop = codec.encode(new ReviveRecord.Pop(QUEUE, 1, 2, 3, new int[] {0}, 2, false, "b"));
        assertNull(codec.decode("other", pop));
        assertNull(codec.decode("ck", "not json".getBytes(StandardCharsets.UTF_8)));
        assertNull(codec.decode("ck", "{\"c\":\"CG\",\"t\":\"T\",\"d\":[]}".getBytes(StandardCharsets.UTF_8)),
            "a checkpoint of no message");
        assertNull(codec.decode("ack", "{\"t\":\"T\"}".getBytes(StandardCharsets.UTF_8)), "no group");
    }

    /** UNIQ_KEY as RocketMQ's genCkUniqueId: topic@queueId@offset@group@popTime@brokerName@tag. */
    @Test
    void uniqueKeysFollowRocketMq() {
        assertEquals("T@3@10@CG@1000@b@ck", ReviveRecordCodec.uniqueKey(
            new ReviveRecord.Pop(QUEUE, 10, 1_000, 1, new int[] {0}, 11, false, "b"), "b"));
        assertEquals("T@3@12@CG@1000@b@ack", ReviveRecordCodec.uniqueKey(
            new ReviveRecord.Ack(QUEUE, 10, 1_000, List.of(12L), "b"), "b"));
    }
}
