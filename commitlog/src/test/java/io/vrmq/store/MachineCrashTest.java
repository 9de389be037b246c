package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vrmq.store.checkpoint.Checkpoint;
import io.vrmq.store.queue.ConsumeQueue;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulated machine crash under ASYNC_FLUSH: a child JVM appends (printing every queue offset it was answered),
 * forces once explicitly, appends on and is SIGKILLed; then we cut the CommitLog and the ConsumeQueues back to that
 * force, as a power loss leaves them (unforced pages gone: preallocated files read zeroes there), or only the
 * CommitLog, further on (the kernel had written back some pages of each). The checkpoint was last written at the
 * child's open, so every cut is no lower than its flushed offsets: a state a real crash can leave.
 * After reopening, no queue offset answered before the crash is handed out again and readers cross the gap.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MachineCrashTest {
    private static final int SENT_AFTER_FLUSH = 1_500;

    @Test
    void afterLosingTheUnforcedTailNoAnsweredQueueOffsetIsHandedOutAgainAndReadsCrossTheGap(@TempDir Path dir)
            throws Exception {
        crashCutAndCheck(dir, CrashWriterMain.FLUSH_POINT, true);
    }

    /** The kernel wrote back some CommitLog pages after the force, and every ConsumeQueue page. */
    @Test
    void afterLosingPartOfTheUnforcedTailWithTheConsumeQueuesAheadOfTheCommitLogNoOffsetIsReused(@TempDir Path dir)
            throws Exception {
        crashCutAndCheck(dir, CrashWriterMain.FLUSH_POINT + SENT_AFTER_FLUSH / 2, false);
    }

    /** Runs the child, cuts the CommitLog at record {@code keptRecords} (and the ConsumeQueues with it), reopens. */
    private static void crashCutAndCheck(Path dir, int keptRecords, boolean cutQueues) throws Exception {
        List<String[]> sent = ProcessCrashTest.runChildAndKill(dir, FlushDiskType.ASYNC_FLUSH, "SENT ",
                CrashWriterMain.FLUSH_POINT + SENT_AFTER_FLUSH, CrashWriterMain.SLOW_FORCES);
        long cut = Long.parseLong(sent.get(keptRecords)[2]);   // the first record the crash lost
        assertCheckpointAtOrBelow(dir, cut);
        long[] keptEntries = new long[CrashWriterMain.QUEUES];
        long[] highestAnswered = new long[CrashWriterMain.QUEUES];
        for (int i = 0; i < sent.size(); i++) {
            int queueId = Integer.parseInt(sent.get(i)[0]);
            highestAnswered[queueId] = Math.max(highestAnswered[queueId], Long.parseLong(sent.get(i)[1]));
            if (i < keptRecords) {
                keptEntries[queueId]++;
            }
        }
        cutCommitLog(dir.resolve("commitlog"), cut);
        for (int queueId = 0; cutQueues && queueId < CrashWriterMain.QUEUES; queueId++) {
            cutConsumeQueue(dir.resolve("consumequeue").resolve(CrashWriterMain.TOPIC).resolve("" + queueId),
                    keptEntries[queueId] * ConsumeQueue.ENTRY_BYTES);
        }

        try (MessageStore store = MessageStore.open(TestStores.config(dir, FlushDiskType.ASYNC_FLUSH))) {
            assertFalse(store.recoveryReport().cleanShutdown());
            assertEquals(cut, store.getCommitLogMaxOffset(), "the cut tail is gone, as after a power loss");
            ProcessCrashTest.assertFound(store, sent.subList(0, keptRecords));
            for (int queueId = 0; queueId < CrashWriterMain.QUEUES; queueId++) {
                assertTrue(keptEntries[queueId] <= highestAnswered[queueId], "the crash lost answered offsets");
                AppendResult after = store.append(TestStores.message(CrashWriterMain.TOPIC, queueId, 9_000, "t"));
                assertEquals(AppendStatus.PUT_OK, after.status());
                assertTrue(after.queueOffset() > highestAnswered[queueId], "queue " + queueId + " handed out "
                        + after.queueOffset() + " again (answered up to " + highestAnswered[queueId] + ")");
                AppendAndReadTest.awaitDispatched(store, CrashWriterMain.TOPIC, queueId, after.queueOffset() + 1);
                assertEquals(after.queueOffset(), firstMessageFrom(store, queueId, keptEntries[queueId]),
                        "a reader after the last kept message skips the blanks to the new one");
                assertEquals(after.queueOffset(), firstMessageFrom(store, queueId, highestAnswered[queueId] + 1),
                        "a consumer that committed past the lost messages continues");
            }
        }
    }

    /** The queue offset of the first message at or after {@code offset}, reading the way a consumer does. */
    private static long firstMessageFrom(MessageStore store, int queueId, long offset) {
        long next = offset;
        long max = store.getMaxOffsetInQueue(CrashWriterMain.TOPIC, queueId);
        while (next < max) {
            GetMessageResult read = store.getMessages(CrashWriterMain.TOPIC, queueId, next, 8, 1 << 20,
                    TagFilter.ALL);
            if (!read.messages().isEmpty()) {
                return read.messages().get(0).queueOffset();
            }
            assertTrue(read.nextBeginOffset() > next, "reads make progress over blanks");
            next = read.nextBeginOffset();
        }
        return -1;
    }

    private static void assertCheckpointAtOrBelow(Path dir, long cut) {
        Checkpoint checkpoint = Checkpoint.open(dir.resolve("checkpoint"));
        assertTrue(checkpoint.commitLogFlushedOffset() <= cut && checkpoint.dispatchedFlushedOffset() <= cut,
                "a machine crash keeps everything below the checkpoint's offsets");
    }

    /** Zeroes the CommitLog from {@code cut} and deletes the segments after it. */
    private static void cutCommitLog(Path directory, long cut) throws IOException {
        for (Path segment : sorted(directory)) {
            long base = Long.parseLong(segment.getFileName().toString());
            if (base > cut) {
                Files.delete(segment);
            } else {
                zeroFrom(segment, cut - base);
            }
        }
    }

    /** Zeroes a ConsumeQueue from byte {@code keptBytes} of the queue and deletes the files after it. */
    private static void cutConsumeQueue(Path directory, long keptBytes) throws IOException {
        for (Path file : sorted(directory)) {
            long base = Long.parseLong(file.getFileName().toString());
            if (base > keptBytes) {
                Files.delete(file);
            } else {
                zeroFrom(file, keptBytes - base);
            }
        }
    }

    private static void zeroFrom(Path file, long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long length = raf.length();
            if (position < length) {
                raf.seek(position);
                raf.write(new byte[(int) (length - position)]);
            }
        }
    }

    private static List<Path> sorted(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }
}
