package io.vrmq.broker.pop;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The in-flight table alone: acks close checkpoints, revive order, the revive progress they pin, counts. */
class InflightTableTest {
    private static final QueueKey QUEUE = new QueueKey("CG", "T", 0);

    private final PopInflight counts = new PopInflight();
    private final List<long[]> published = new ArrayList<>();
    private final InflightTable table = new InflightTable(new long[] {0, 0}, counts,
        (queue, offset) -> published.add(new long[] {queue, offset}));

    @Test
    void aCheckpointPinsTheReviveProgressUntilAllItsMessagesAreAcked() {
        table.pin(0, 0);
        Checkpoint checkpoint = checkpoint(100, 5_000, 0);
        assertTrue(table.add(checkpoint));
        table.noteAppended(0, 1);
        assertEquals(0, table.reviveOffset(0), "held by the open checkpoint");
        assertEquals(2, counts.count("CG", "T", 0));
        assertSame(checkpoint, table.find(QUEUE, 100, 5_000));

        assertTrue(table.ack(checkpoint, 0));
        assertFalse(table.ack(checkpoint, 0), "acked twice");
        assertEquals(1, counts.count("CG", "T", 0));
        assertTrue(table.ack(checkpoint, 1));

        assertTrue(checkpoint.isResolved());
        assertNull(table.find(QUEUE, 100, 5_000));
        assertEquals(2, table.reviveOffset(0), "one past the last record once nothing is open");
        assertEquals(0, counts.total());
        assertEquals(2, published.get(published.size() - 1)[1]);
    }

    @Test
    void dueCheckpointsComeEarliestFirstAndARevivedOneStopsPinning() {
        table.pin(1, 7);
        table.pin(1, 8);
        Checkpoint later = checkpoint(0, 9_000, 7, 1);
        Checkpoint earlier = checkpoint(10, 1_000, 8, 1);
        table.add(later);
        table.add(earlier);
        assertEquals(List.of(earlier), table.due(1_000 + 60_000 - 1 + 1, 10).subList(0, 1));
        assertEquals(7, table.reviveOffset(1));
        table.resolve(later);
        assertEquals(8, table.reviveOffset(1));
        table.resolve(earlier);
        assertEquals(9, table.reviveOffset(1));
        assertTrue(table.due(Long.MAX_VALUE, 10).isEmpty());
    }

    @Test
    void aDuplicateCheckpointIsRefusedAndReleasesItsPin() {
        table.pin(0, 3);
        table.add(checkpoint(100, 5_000, 3));
        table.pin(0, 4);
        assertFalse(table.add(checkpoint(100, 5_000, 4)));
        assertEquals(3, table.reviveOffset(0));
        assertEquals(1, table.checkpointCount());
    }

    @Test
    void anOrderlyPopReplacesTheQueuesLastAndAcksCommitToTheFirstUnacked() {
        table.pin(0, 1);
        OrderCheckpoint first = new OrderCheckpoint(QUEUE, "a", 1_000, 10_000, new long[] {4, 5, 6}, Map.of(), 0, 1);
        table.putOrder(first);
        assertEquals(3, counts.orderlyCount("CG", "T", 0));
        assertEquals(OrderCheckpoint.STALE, table.commitOrder(first, 5, 999), "another pop's ack");
        assertEquals(4, table.commitOrder(first, 5, 1_000), "offset 4 still unacked");
        assertEquals(OrderCheckpoint.ILLEGAL, table.commitOrder(first, 9, 1_000));
        assertTrue(first.blocks("b", 5_000));
        assertFalse(first.blocks("a", 5_000), "the same attempt is not blocked");
        assertFalse(first.blocks("b", 11_000), "expired");

        table.pin(0, 2);
        OrderCheckpoint second = new OrderCheckpoint(QUEUE, "b", 12_000, 10_000, new long[] {4, 5},
            OrderCheckpoint.countsAfter(first, "b", new long[] {4, 5}), 0, 2);
        assertEquals(Map.of(4L, 1, 5L, 1), second.consumedCounts());
        table.putOrder(second);
        assertEquals(2, table.reviveOffset(0), "the replaced pop no longer pins");
        assertEquals(4, table.commitOrder(second, 5, 12_000));
        assertEquals(6, table.commitOrder(second, 4, 12_000), "all acked: past the last");
        assertNull(table.order(QUEUE));
        assertEquals(3, table.reviveOffset(0));
        assertEquals(0, counts.total());
    }

    private Checkpoint checkpoint(long startOffset, long popTime, long logOffset) {
        return checkpoint(startOffset, popTime, logOffset, 0);
    }

    private Checkpoint checkpoint(long startOffset, long popTime, long logOffset, int reviveQueueId) {
        return new Checkpoint(QUEUE, startOffset, popTime, 60_000, new int[] {0, 1}, startOffset + 2, reviveQueueId,
            logOffset, false, table.nextSequence());
    }
}
