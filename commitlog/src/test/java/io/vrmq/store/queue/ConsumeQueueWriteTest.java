package io.vrmq.store.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entries written into pages touched for the first time go through the file, the rest through the mapping: both
 * kinds read back alike, before and after a reopen, across page and file boundaries and with blanks below a start.
 */
class ConsumeQueueWriteTest {
    /** Three files of 410 entries: page boundaries fall inside entries (4096 is not a multiple of 20). */
    private static final int FILE_BYTES = 410 * ConsumeQueue.ENTRY_BYTES;
    private static final int ENTRIES = 1000;

    @Test
    void entriesAcrossPagesAndFilesReadBackAfterAReopen(@TempDir Path dir) {
        ConsumeQueue queue = ConsumeQueue.open(dir, "T", 0, FILE_BYTES);
        for (int i = 0; i < ENTRIES; i++) {
            assertTrue(queue.put(i, 1000L * i + 1, 100 + i, i));
        }
        assertEntries(queue, 0);
        queue.flush();

        ConsumeQueue reopened = ConsumeQueue.open(dir, "T", 0, FILE_BYTES);

        assertEquals(ENTRIES, reopened.maxOffset());
        assertEntries(reopened, 0);
    }

    @Test
    void aQueueStartingInsideAFileHasBlanksBelowItsFirstEntryAfterAReopen(@TempDir Path dir) {
        int first = 500;   // in the second file
        ConsumeQueue queue = ConsumeQueue.open(dir, "T", 3, FILE_BYTES);
        for (int i = first; i < ENTRIES; i++) {
            assertTrue(queue.put(i, 1000L * i + 1, 100 + i, i));
        }
        queue.flush();

        ConsumeQueue reopened = ConsumeQueue.open(dir, "T", 3, FILE_BYTES);

        assertEquals(ENTRIES, reopened.maxOffset());
        assertEquals(first, reopened.minOffset());
        ConsumeQueueEntry entry = new ConsumeQueueEntry();
        assertTrue(reopened.read(FILE_BYTES / ConsumeQueue.ENTRY_BYTES, entry));
        assertTrue(entry.isBlank(), "the entries of the second file below the first message are blanks");
        assertEntries(reopened, first);
    }

    private static void assertEntries(ConsumeQueue queue, int from) {
        ConsumeQueueEntry entry = new ConsumeQueueEntry();
        for (int i = from; i < ENTRIES; i++) {
            assertTrue(queue.read(i, entry), "entry " + i);
            assertEquals(1000L * i + 1, entry.commitLogOffset(), "entry " + i);
            assertEquals(100 + i, entry.sizeBytes(), "entry " + i);
            assertEquals(i, entry.tagsCode(), "entry " + i);
        }
    }
}
