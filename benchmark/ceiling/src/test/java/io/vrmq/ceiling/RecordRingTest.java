package io.vrmq.ceiling;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ceiling's bounds: the arena reuses its oldest chunk, and a queue forgets what was in it or beyond its cap. */
class RecordRingTest {

    @Test
    void aReusedChunkDropsItsRecordsFromTheFrontOfTheQueue() {
        RecordArena arena = new RecordArena(100, 2);
        RecordRing ring = new RecordRing(1_000);
        for (int index = 0; index < 3; index++) {
            ring.append(arena.allocate(60), 60);   // one record per chunk: the third reuses the first chunk
        }
        assertFalse(arena.isLive(ring.address(0)));
        ring.trim(arena);
        assertEquals(1, ring.minOffset());
        assertEquals(3, ring.maxOffset());
        assertTrue(arena.isLive(ring.address(1)));
    }

    @Test
    void aFullQueueDropsItsOldestAndKeepsOffsetsGrowing() {
        RecordArena arena = new RecordArena(1 << 20, 1);
        RecordRing ring = new RecordRing(3);
        long last = -1;
        for (int index = 0; index < 2_000; index++) {
            last = ring.append(arena.allocate(10), 10 + index % 3);
        }
        assertEquals(1_999, last);
        assertEquals(1_997, ring.minOffset());
        assertEquals(10 + 1_998 % 3, ring.size(1_998));
    }

    @Test
    void aRecordLargerThanAChunkIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RecordArena(100, 2).allocate(101));
    }
}
