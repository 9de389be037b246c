package io.vrmq.broker.timer;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The timer index alone: slot order, partial removal, bucket compaction. */
class TimerIndexTest {

    /** The earliest slot comes first whatever the scan order, and its entries keep their queue order. */
    @Test
    void earliestSlotComesFirstWithEntriesInQueueOrder() {
        TimerIndex index = new TimerIndex();
        index.add(5_000, 0, 100);
        index.add(2_000, 1, 200);
        index.add(2_000, 2, 300);
        assertEquals(2_000, index.firstSlotMs());
        long[][] first = index.peekFirst(10);
        assertArrayEquals(new long[] {1, 2}, first[0]);
        assertArrayEquals(new long[] {200, 300}, first[1]);
        assertEquals(3, index.size());
    }

    /** Removing part of a slot keeps the rest; removing all of it moves to the next slot. */
    @Test
    void removingDeliveredEntriesMovesThroughSlots() {
        TimerIndex index = new TimerIndex();
        for (long offset = 0; offset < 10; offset++) {
            index.add(1_000, offset, offset * 10);
        }
        index.add(3_000, 10, 100);
        index.removeFirst(4);
        assertArrayEquals(new long[] {4, 5}, index.peekFirst(2)[0]);
        assertEquals(4, index.minQueueOffset(-1));
        index.removeFirst(6);
        assertEquals(3_000, index.firstSlotMs());
        assertEquals(10, index.minQueueOffset(-1));
        index.removeFirst(1);
        assertTrue(index.isEmpty());
        assertEquals(42, index.minQueueOffset(42));
    }

    /** A bucket that is drained while it fills keeps every entry (compaction, then growth). */
    @Test
    void bucketKeepsEveryEntryWhileDrainedAndRefilled() {
        TimerIndex index = new TimerIndex();
        long next = 0;
        long expected = 0;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 7; i++) {
                index.add(1_000, next, next);
                next++;
            }
            long[][] head = index.peekFirst(3);
            assertEquals(expected, head[0][0]);
            index.removeFirst(3);
            expected += 3;
        }
        assertEquals(next - expected, index.size());
        assertEquals(expected, index.minQueueOffset(-1));
    }

    /**
     * Recalled keys are counted once each, only in a slot that holds something, and dropped with their slot; the
     * earliest slot's keys are a read-only view (no copy per delivery batch).
     */
    @Test
    void deleteKeysAreCountedOnceAndDroppedWithTheirSlot() {
        TimerIndex index = new TimerIndex();
        index.add(1_000, 0, 0);
        index.add(1_000, 1, 10);
        index.add(2_000, 2, 20);
        assertTrue(index.addDeleteKey(1_000, "A"));
        assertTrue(index.addDeleteKey(1_000, "A"));
        assertTrue(index.addDeleteKey(1_000, "B"));
        assertTrue(index.addDeleteKey(2_000, "C"));
        assertFalse(index.addDeleteKey(9_000, "D"), "nothing held in that slot");
        assertEquals(3, index.deleteKeyCount());
        assertEquals(Set.of("A", "B"), index.firstDeleteKeys());
        assertThrows(UnsupportedOperationException.class, () -> index.firstDeleteKeys().add("X"));
        index.removeFirst(1);
        assertEquals(3, index.deleteKeyCount(), "the slot still holds a message");
        index.removeFirst(1);
        assertEquals(1, index.deleteKeyCount());
        assertEquals(Set.of("C"), index.firstDeleteKeys());
        index.removeFirst(1);
        assertEquals(0, index.deleteKeyCount());
    }

    @Test
    void removingMoreThanTheSlotHoldsIsABug() {
        TimerIndex index = new TimerIndex();
        index.add(1_000, 0, 0);
        assertThrows(IllegalStateException.class, () -> index.removeFirst(2));
    }
}
