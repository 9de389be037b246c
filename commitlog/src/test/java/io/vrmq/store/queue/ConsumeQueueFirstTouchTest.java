package io.vrmq.store.queue;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first entry of a ConsumeQueue file is not written through the mapping: a mapped write into a never-written
 * page faults, and the file system allocating the page inside that fault cost milliseconds a page (10,000 new
 * queues: 30 s of dispatcher CPU). Counted as this thread's page faults (Linux's /proc/thread-self/stat), not timed:
 * a mapped first write faults at least once per file, a write through the file not at all.
 */
class ConsumeQueueFirstTouchTest {
    private static final int FILE_BYTES = 1000 * ConsumeQueue.ENTRY_BYTES;
    private static final int QUEUES = 64;
    private static final Path THREAD_STAT = Path.of("/proc/thread-self/stat");

    @Test
    void firstEntriesOfNewFilesDoNotFaultTheMapping(@TempDir Path dir) throws IOException {
        assumeTrue(Files.isReadable(THREAD_STAT), "needs Linux's per-thread fault counts");
        putFirstEntries(openQueues(dir.resolve("warm-up")));   // classes loaded, code compiled, heap touched
        List<ConsumeQueue> queues = openQueues(dir.resolve("measured"));

        long before = minorFaults();
        putFirstEntries(queues);
        long faults = minorFaults() - before;

        assertTrue(faults < QUEUES / 2, faults + " page faults for the first entries of " + QUEUES + " files");
    }

    /** Queues whose first file exists (sparse, never written) and is mapped already, so putting maps nothing. */
    private static List<ConsumeQueue> openQueues(Path root) throws IOException {
        List<ConsumeQueue> queues = new ArrayList<>();
        for (int id = 0; id < QUEUES; id++) {
            Path directory = Files.createDirectories(root.resolve(Integer.toString(id)));
            try (RandomAccessFile file = new RandomAccessFile(directory.resolve("00000000000000000000").toFile(),
                    "rw")) {
                file.setLength(FILE_BYTES);
            }
            queues.add(ConsumeQueue.open(directory, "T", id, FILE_BYTES));
        }
        return queues;
    }

    private static void putFirstEntries(List<ConsumeQueue> queues) {
        for (ConsumeQueue queue : queues) {
            assertTrue(queue.put(0, 4096, 100, 7));
        }
    }

    /** Field 10 of the thread's stat line (after the parenthesised name, which may hold spaces). */
    private static long minorFaults() throws IOException {
        String stat = Files.readString(THREAD_STAT);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[7]);
    }
}
