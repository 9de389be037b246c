package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Storage damage on disk, reopen, assert what survived: never serve damage, never lose or reuse offsets. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RecoveryTest {
    private static final String TOPIC = "Rec";
    /** Enough messages for two commit-log segments and several ConsumeQueue files. */
    private static final int COUNT = 600;

    @Test
    void cleanShutdownVerifiesOnlyTheLastSegmentAndKeepsEverything(@TempDir Path dir) throws Exception {
        List<AppendResult> written = fill(dir);
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            RecoveryReport report = store.recoveryReport();
            assertTrue(report.cleanShutdown());
            assertEquals(TestStores.SEGMENT_BYTES, report.walkedFromOffset());
            assertEquals(0, report.redispatchedRecords());
            assertAllReadable(store, written, -1);
            assertEquals(COUNT, store.append(TestStores.message(TOPIC, 0, COUNT, "t")).queueOffset());
        }
    }

    @Test
    void flippedBodyByteMidSegmentIsSkippedReportedAndNeverServedWhileLaterRecordsKeepTheirOffsets(
            @TempDir Path dir) throws Exception {
        List<AppendResult> written = fill(dir);
        AppendResult victim = written.get(100);
        flipByte(dir, victim.commitLogOffset() + 90);
        simulateCrashWithOldCheckpoint(dir);

        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            RecoveryReport report = store.recoveryReport();
            assertFalse(report.cleanShutdown());
            assertEquals(1, report.damaged().size());
            DamagedRange damage = report.damaged().get(0);
            assertEquals(victim.commitLogOffset(), damage.commitLogOffset());
            assertEquals(victim.sizeBytes(), damage.lengthBytes());
            assertEquals("body CRC mismatch", damage.reason());
            assertNull(store.lookMessageByOffset(victim.commitLogOffset()));
            assertAllReadable(store, written, 100);
            assertEquals(COUNT, store.append(TestStores.message(TOPIC, 0, COUNT, "t")).queueOffset());
        }
    }

    @Test
    void unreadableHeaderMidSegmentIsSkippedByScanningToTheNextRecord(@TempDir Path dir) throws Exception {
        List<AppendResult> written = fill(dir);
        AppendResult victim = written.get(200);
        writeInt(dir, victim.commitLogOffset(), 0x7FFF_0000);   // TOTALSIZE now points nowhere
        simulateCrashWithOldCheckpoint(dir);
        Files.walk(dir.resolve("consumequeue")).sorted((a, b) -> b.getNameCount() - a.getNameCount())
                .filter(Files::isRegularFile).forEach(RecoveryTest::delete);   // and rebuild every queue

        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(1, report.damaged().size());
            assertEquals(victim.sizeBytes(), report.damaged().get(0).lengthBytes());
            assertTrue(report.consumeQueuesRebuilt());
            assertAllReadable(store, written, 200);
            assertEquals(COUNT, store.append(TestStores.message(TOPIC, 0, COUNT, "t")).queueOffset(),
                    "the damaged record's offset stays taken: the next record after it still said 201");
        }
    }

    @Test
    void truncatedLastSegmentRecoversToItsLastWholeRecordAndOffsetsAreNotReused(@TempDir Path dir)
            throws Exception {
        List<AppendResult> written = fill(dir);
        AppendResult last = written.get(COUNT - 1);
        Path segment = dir.resolve("commitlog/00000000000000065536");
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.setLength(last.commitLogOffset() - TestStores.SEGMENT_BYTES + 20);   // cut inside the last record
        }
        simulateCrashWithOldCheckpoint(dir);

        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(last.commitLogOffset(), report.commitLogEndOffset());
            assertTrue(report.truncatedTail());
            assertAllReadable(store, written.subList(0, COUNT - 1), -1);
            AppendResult next = store.append(TestStores.message(TOPIC, 0, COUNT, "t"));
            assertEquals(last.commitLogOffset(), next.commitLogOffset());
            assertEquals(COUNT, next.queueOffset(), "offset " + (COUNT - 1) + " was acknowledged once: not reused");
        }
    }

    @Test
    void tornTailGarbageIsCutAndZeroed(@TempDir Path dir) throws Exception {
        List<AppendResult> written = fill(dir);
        long end = written.get(COUNT - 1).commitLogOffset() + written.get(COUNT - 1).sizeBytes();
        writeInt(dir, end, 500);
        writeInt(dir, end + 4, 0xDAA320A7);
        writeInt(dir, end + 60, 12345);
        simulateCrashWithOldCheckpoint(dir);

        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertTrue(store.recoveryReport().truncatedTail());
            assertEquals(end, store.getCommitLogMaxOffset());
            assertTrue(store.recoveryReport().damaged().isEmpty());
            assertAllReadable(store, written, -1);
        }
    }

    @Test
    void deletedConsumeQueueFileIsRebuiltFromTheCommitLog(@TempDir Path dir) throws Exception {
        List<AppendResult> written = fill(dir);
        Files.delete(dir.resolve("consumequeue/" + TOPIC + "/0/00000000000000002000"));

        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertTrue(store.recoveryReport().consumeQueuesRebuilt());
            assertTrue(store.recoveryReport().cleanShutdown());
            assertAllReadable(store, written, -1);
        }
    }

    @Test
    void crashWithoutDamageRedispatchesFromTheCheckpointAndKeepsEverything(@TempDir Path dir) throws Exception {
        List<AppendResult> written = fill(dir);
        simulateCrashWithOldCheckpoint(dir);
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            RecoveryReport report = store.recoveryReport();
            assertFalse(report.cleanShutdown());
            assertEquals(0, report.walkedFromOffset());
            assertEquals(COUNT, report.redispatchedRecords());
            assertTrue(report.damaged().isEmpty());
            assertAllReadable(store, written, -1);
            assertEquals(1, store.queryMessage(TOPIC, "key-5", 10, 0, Long.MAX_VALUE).size(),
                    "records indexed again after the crash are not returned twice");
        }
        assertFalse(Files.exists(dir.resolve("abort")), "clean close removes the abort file");
    }

    /** Appends COUNT messages to queue 0, closes cleanly, returns the results. */
    private static List<AppendResult> fill(Path dir) {
        List<AppendResult> results = new ArrayList<>();
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            for (int i = 0; i < COUNT; i++) {
                AppendResult result = store.append(TestStores.message(TOPIC, 0, i, "t"));
                assertEquals(AppendStatus.PUT_OK, result.status());
                results.add(result);
            }
        }
        assertTrue(results.get(COUNT - 1).commitLogOffset() > TestStores.SEGMENT_BYTES, "spans two segments");
        return results;
    }

    /** Every written message readable at its queue offset with its body, except {@code skipped}. */
    private static void assertAllReadable(MessageStore store, List<AppendResult> written, int skipped)
            throws InterruptedException {
        AppendAndReadTest.awaitDispatched(store, TOPIC, 0, written.size());
        List<Long> offsets = new ArrayList<>();
        long next = 0;
        while (next < written.size()) {
            GetMessageResult read = store.getMessages(TOPIC, 0, next, 32, 1 << 20, TagFilter.ALL);
            for (FoundMessage found : read.messages()) {
                int sequence = (int) found.queueOffset();
                assertEquals(TOPIC + "/0/" + sequence + "/" + "x".repeat(sequence % 50),
                        TestStores.bodyText(found.record()));
                assertEquals(written.get(sequence).commitLogOffset(), found.commitLogOffset());
                offsets.add(found.queueOffset());
            }
            assertTrue(read.nextBeginOffset() > next, "reads advance");
            next = read.nextBeginOffset();
        }
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < written.size(); i++) {
            if (i != skipped) {
                expected.add(i);
            }
        }
        assertEquals(expected, offsets);
    }

    /** As after a crash: abort file present and a checkpoint that predates everything. */
    static void simulateCrashWithOldCheckpoint(Path dir) throws IOException {
        Files.write(dir.resolve("abort"), new byte[0]);
        try (RandomAccessFile checkpoint = new RandomAccessFile(dir.resolve("checkpoint").toFile(), "rw")) {
            checkpoint.write(new byte[48]);
        }
    }

    private static void flipByte(Path dir, long commitLogOffset) throws IOException {
        try (RandomAccessFile file = segmentFile(dir, commitLogOffset)) {
            long position = commitLogOffset % TestStores.SEGMENT_BYTES;
            file.seek(position);
            int value = file.read();
            file.seek(position);
            file.write(value ^ 0x40);
        }
    }

    private static void writeInt(Path dir, long commitLogOffset, int value) throws IOException {
        try (RandomAccessFile file = segmentFile(dir, commitLogOffset)) {
            file.seek(commitLogOffset % TestStores.SEGMENT_BYTES);
            file.writeInt(value);
        }
    }

    private static RandomAccessFile segmentFile(Path dir, long commitLogOffset) throws IOException {
        long base = commitLogOffset / TestStores.SEGMENT_BYTES * TestStores.SEGMENT_BYTES;
        return new RandomAccessFile(dir.resolve("commitlog").resolve(String.format("%020d", base)).toFile(), "rw");
    }

    private static void delete(Path path) {
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
