package io.vrmq.store.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes through the file (first touches of a page) next to writes through the mapping of the same segment. */
class MappedSegmentTest {
    private static final int CAPACITY = 4 * MappedSegment.PAGE_BYTES;

    @Test
    void onlyBytesPastThePagesOfThePublishedOnesReachAnUnwrittenPage(@TempDir Path dir) {
        MappedSegment segment = MappedSegment.map(dir.resolve(MappedSegment.fileName(0)), 0, CAPACITY);

        assertTrue(segment.reachesUnwrittenPage(0, 20), "a new file has no written page");
        segment.setWritePosition(20);
        assertFalse(segment.reachesUnwrittenPage(20, 20));
        assertFalse(segment.reachesUnwrittenPage(MappedSegment.PAGE_BYTES - 20, 20));
        assertTrue(segment.reachesUnwrittenPage(MappedSegment.PAGE_BYTES - 10, 20), "an entry across the page end");
        segment.setWritePosition(MappedSegment.PAGE_BYTES + 1);
        assertFalse(segment.reachesUnwrittenPage(2 * MappedSegment.PAGE_BYTES - 20, 20));
        assertTrue(segment.reachesUnwrittenPage(2 * MappedSegment.PAGE_BYTES, 20));
    }

    @Test
    void bytesWrittenThroughTheFileReadThroughTheMappingAndSurviveAFlushAndAReopen(@TempDir Path dir) {
        Path file = dir.resolve(MappedSegment.fileName(0));
        MappedSegment segment = MappedSegment.map(file, 0, CAPACITY);
        int second = MappedSegment.PAGE_BYTES + 8;

        segment.writeThroughFile(0, ByteBuffer.allocate(8).putLong(0, 0x1122334455667788L));
        segment.buffer().putLong(8, 42);
        segment.writeThroughFile(second, ByteBuffer.allocate(8).putLong(0, -7));
        segment.setWritePosition(second + 8);
        segment.flush();

        assertEquals(0x1122334455667788L, segment.buffer().getLong(0), "the mapping shows the file's write");
        assertEquals(-7, segment.buffer().getLong(second));
        MappedSegment reopened = MappedSegment.map(file, 0, CAPACITY);
        assertEquals(0x1122334455667788L, reopened.buffer().getLong(0));
        assertEquals(42, reopened.buffer().getLong(8));
        assertEquals(-7, reopened.buffer().getLong(second));
    }

    @Test
    void aDeletedFileStillTakesTheWriteThroughItsMapping(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(MappedSegment.fileName(0));
        MappedSegment segment = MappedSegment.map(file, 0, CAPACITY);
        segment.delete();

        segment.writeThroughFile(16, ByteBuffer.allocate(8).putLong(0, 99));

        assertEquals(99, segment.buffer().getLong(16));
        assertFalse(Files.exists(file), "the write must not create the deleted file again");
    }
}
