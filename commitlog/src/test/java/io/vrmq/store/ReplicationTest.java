package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A master's CommitLog copied into a replica with readCommitLog/appendReplicated, as RocketMQ's HA stream does. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicationTest {
    /** Enough messages for about five 64 KiB segments, so the master rolls (and writes fillers) several times. */
    private static final int COUNT = 900;

    @Test
    void aReplicaFedRandomChunksEqualsTheMasterInBytesQueuesAndIndex(@TempDir Path masterDir,
                                                                     @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            ReplicaFixture.fillMaster(master, COUNT);
            assertTrue(master.getCommitLogMaxOffset() > 4L * TestStores.SEGMENT_BYTES, "rolled several times");

            ReplicaFixture.replicateAll(master, replica, new Random(7));

            assertSameCommitLog(master, replica);
            assertSameQueues(master, replica);
            for (String key : List.of("key-5", "uniq-450", "key-451", "shared")) {
                assertEquals(offsets(master.queryMessage("RepB", key, 32, 0, Long.MAX_VALUE)),
                        offsets(replica.queryMessage("RepB", key, 32, 0, Long.MAX_VALUE)), key);
            }
            assertEquals(master.getEarliestMessageTime(), replica.getEarliestMessageTime());
            assertEquals(replica.getCommitLogMaxOffset(), replica.flush(), "the flusher forces replicated bytes");
        }
    }

    @Test
    void retentionOnAReplicaDeletesItsOldestSegmentAndReplicationGoesOn(@TempDir Path masterDir,
            @TempDir Path replicaDir) throws Exception {
        AtomicReference<Double> diskUsed = new AtomicReference<>(10.0);
        StoreOptions replicaOptions = StoreOptions.defaults().withDisk(root -> diskUsed.get());
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir), replicaOptions)) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, COUNT);
            long halfway = written.get(COUNT / 2).commitLogOffset() + 3;
            ReplicaFixture.replicate(master, replica, new Random(61), halfway);
            for (String topic : ReplicaFixture.TOPICS) {
                for (int queueId : master.getQueueIds(topic)) {
                    AppendAndReadTest.awaitDispatched(replica, topic, queueId,
                            firstQueueOffsetAtOrAfter(master, topic, queueId, replica.getCommitLogMaxOffset()));
                }
            }

            diskUsed.set(80.0);
            assertEquals(1, replica.runRetention());
            diskUsed.set(10.0);
            assertEquals(TestStores.SEGMENT_BYTES, replica.getCommitLogMinOffset());
            assertEquals(halfway, replica.replicaWriteOffset(), "the partly received record is still pending");

            ReplicaFixture.replicateAll(master, replica, new Random(67));
            assertEquals(master.getCommitLogMaxOffset(), replica.getCommitLogMaxOffset());
            for (String topic : ReplicaFixture.TOPICS) {
                for (int queueId : master.getQueueIds(topic)) {
                    long max = master.getMaxOffsetInQueue(topic, queueId);
                    AppendAndReadTest.awaitDispatched(replica, topic, queueId, max);
                    long min = firstQueueOffsetAtOrAfter(master, topic, queueId, TestStores.SEGMENT_BYTES);
                    assertEquals(min, replica.getMinOffsetInQueue(topic, queueId), topic + "-" + queueId);
                    assertSameMessages(master, replica, topic, queueId, min);
                }
            }
        }
    }

    @Test
    void anEmptyReplicaStartsAtTheMastersMinOffsetAfterRetentionDeletedItsFirstSegments(@TempDir Path masterDir,
            @TempDir Path replicaDir) throws Exception {
        AtomicReference<Double> diskUsed = new AtomicReference<>(10.0);
        StoreOptions masterOptions = StoreOptions.defaults().withDisk(root -> diskUsed.get());
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir), masterOptions);
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            ReplicaFixture.fillMaster(master, COUNT);
            diskUsed.set(80.0);   // past diskMaxUsedSpaceRatio: each run deletes the oldest segment
            assertEquals(1, master.runRetention());
            assertEquals(1, master.runRetention());
            long start = master.getCommitLogMinOffset();
            assertEquals(2L * TestStores.SEGMENT_BYTES, start);

            ReplicaFixture.replicate(master, replica, new Random(11), start, master.getCommitLogMaxOffset());

            assertEquals(start, replica.getCommitLogMinOffset());
            assertTrue(Files.exists(replicaDir.resolve("commitlog").resolve(String.format("%020d", start))));
            assertSameCommitLog(master, replica);
            assertSameQueues(master, replica);
            assertTrue(replica.getMinOffsetInQueue("RepA", 0) > 0, "the queue starts at its first kept message");
        }
    }

    @Test
    void anEmptyReplicaStartingAtTheMastersNewestSegmentHasQueuesStartingAtTheirFirstMessageThere(
            @TempDir Path masterDir, @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, COUNT);
            long start = master.getCommitLogMaxOffset() / TestStores.SEGMENT_BYTES * TestStores.SEGMENT_BYTES;

            ReplicaFixture.replicate(master, replica, new Random(13), start, master.getCommitLogMaxOffset());

            assertEquals(start, replica.getCommitLogMinOffset());
            assertSameCommitLog(master, replica);
            AppendResult firstKept = written.stream().filter(result -> result.commitLogOffset() >= start)
                    .findFirst().orElseThrow();
            for (String topic : ReplicaFixture.TOPICS) {
                for (int queueId : master.getQueueIds(topic)) {
                    long masterMax = master.getMaxOffsetInQueue(topic, queueId);
                    AppendAndReadTest.awaitDispatched(replica, topic, queueId, masterMax);
                    long expectedMin = firstQueueOffsetAtOrAfter(master, topic, queueId, start);
                    assertEquals(expectedMin, replica.getMinOffsetInQueue(topic, queueId), topic + "-" + queueId);
                    assertEquals(masterMax, replica.getMaxOffsetInQueue(topic, queueId));
                    assertEquals(GetMessageStatus.OFFSET_TOO_SMALL,
                            replica.getMessages(topic, queueId, 0, 1, 1 << 20, TagFilter.ALL).status());
                    assertSameMessages(master, replica, topic, queueId, expectedMin);
                }
            }
            assertTrue(firstKept.queueOffset() > 0);
        }
    }

    @Test
    void aReplicaThatStartedAtANonZeroOffsetReopensWithTheSameBoundsAndGoesOn(@TempDir Path masterDir,
            @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir))) {
            ReplicaFixture.fillMaster(master, COUNT);
            long start = 3L * TestStores.SEGMENT_BYTES;
            long middle = start + TestStores.SEGMENT_BYTES / 2;
            try (MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
                ReplicaFixture.replicate(master, replica, new Random(71), start, middle);
            }
            try (MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
                assertEquals(start, replica.getCommitLogMinOffset());
                ReplicaFixture.replicateAll(master, replica, new Random(73));
                assertSameCommitLog(master, replica);
                for (String topic : ReplicaFixture.TOPICS) {
                    for (int queueId : master.getQueueIds(topic)) {
                        AppendAndReadTest.awaitDispatched(replica, topic, queueId,
                                master.getMaxOffsetInQueue(topic, queueId));
                        long min = firstQueueOffsetAtOrAfter(master, topic, queueId, start);
                        assertEquals(min, replica.getMinOffsetInQueue(topic, queueId), topic + "-" + queueId);
                        assertSameMessages(master, replica, topic, queueId, min);
                    }
                }
            }
        }
    }

    @Test
    void anEmptyReplicaRefusesAStartThatIsNotASegmentStart(@TempDir Path masterDir, @TempDir Path replicaDir)
            throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, 10);
            long second = written.get(1).commitLogOffset();
            ReplicationException refused = assertThrows(ReplicationException.class,
                    () -> replica.appendReplicated(second, master.readCommitLog(second, 1000)));
            assertTrue(refused.getMessage().contains("multiple of mappedFileSizeCommitLog=65536"),
                    refused.getMessage());
            assertEquals(0, replica.getCommitLogMaxOffset());
        }
    }

    @Test
    void aCorruptedRecordIsRefusedAndOnlyTheWholeGoodRecordsBeforeItArePublished(@TempDir Path masterDir,
            @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, 40);
            AppendResult good = written.get(10);
            AppendResult victim = written.get(11);
            ReplicaFixture.replicate(master, replica, new Random(17), good.commitLogOffset() + 5);   // 5 bytes pending
            ByteBuffer chunk = ReplicaFixture.copyOf(master, good.commitLogOffset() + 5,
                    written.get(14).commitLogOffset());
            int bodyAt = (int) (victim.commitLogOffset() - good.commitLogOffset() - 5) + 88;   // first body byte
            chunk.put(bodyAt, (byte) (chunk.get(bodyAt) ^ 0x40));

            ReplicationException refused = assertThrows(ReplicationException.class,
                    () -> replica.appendReplicated(good.commitLogOffset() + 5, chunk));

            assertTrue(refused.getMessage().contains("offset " + victim.commitLogOffset()), refused.getMessage());
            assertTrue(refused.getMessage().contains("body CRC"), refused.getMessage());
            assertEquals(victim.commitLogOffset(), replica.getCommitLogMaxOffset(), "the record before it is whole");
            assertEquals(victim.commitLogOffset(), replica.replicaWriteOffset(), "the bytes after it are dropped");
            assertNull(replica.lookMessageByOffset(victim.commitLogOffset()));

            ReplicaFixture.replicateAll(master, replica, new Random(19));   // resend from the max offset
            assertSameCommitLog(master, replica);
            assertSameQueues(master, replica);
        }
    }

    @Test
    void aCorruptedHeaderInAChunkThatEndsInsideTheRecordIsRefusedAtOnce(@TempDir Path masterDir,
                                                                        @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, 10);
            long victim = written.get(3).commitLogOffset();
            ReplicaFixture.replicate(master, replica, new Random(23), victim);
            ByteBuffer chunk = ReplicaFixture.copyOf(master, victim, victim + 20);
            chunk.putInt(4, 0x12345678);   // MAGIC

            ReplicationException refused = assertThrows(ReplicationException.class,
                    () -> replica.appendReplicated(victim, chunk));

            assertTrue(refused.getMessage().contains("magic 0x12345678"), refused.getMessage());
            assertEquals(victim, replica.getCommitLogMaxOffset());
            assertEquals(victim, replica.replicaWriteOffset());
        }
    }

    @Test
    void offsetsThatDoNotContinueTheReplicaAreRefusedAndAResendFromTheMaxOffsetDropsThePartialRecord(
            @TempDir Path masterDir, @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, 20);
            long recordStart = written.get(5).commitLogOffset();
            ReplicaFixture.replicate(master, replica, new Random(29), recordStart + 30);
            assertEquals(recordStart, replica.getCommitLogMaxOffset());
            assertEquals(recordStart + 30, replica.replicaWriteOffset());

            for (long wrong : new long[] {recordStart + 31, recordStart + 29, recordStart - 1, 0}) {
                ReplicationException refused = assertThrows(ReplicationException.class,
                        () -> replica.appendReplicated(wrong, master.readCommitLog(wrong, 10)));
                assertEquals("replicated bytes at commit log offset " + wrong + " do not continue this replica: the "
                        + "next byte goes at " + (recordStart + 30) + " (or at " + recordStart + ", the end of the "
                        + "last whole record, to resend the partly received one)", refused.getMessage());
            }
            assertEquals(recordStart + 30, replica.replicaWriteOffset(), "a refused offset changes nothing");

            long next = written.get(6).commitLogOffset();
            assertEquals(next, replica.appendReplicated(recordStart, master.readCommitLog(recordStart,
                    (int) (next - recordStart))), "the reconnect resends the whole record");
            ReplicaFixture.replicateAll(master, replica, new Random(31));
            assertSameCommitLog(master, replica);
            assertSameQueues(master, replica);
        }
    }

    @Test
    void aChunkCrossingASegmentEndIsRefused(@TempDir Path masterDir, @TempDir Path replicaDir)
            throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            ReplicaFixture.fillMaster(master, 400);
            long end = TestStores.SEGMENT_BYTES;
            ReplicaFixture.replicate(master, replica, new Random(37), end - 100);
            ByteBuffer crossing = ByteBuffer.allocate(200);
            crossing.put(ReplicaFixture.copyOf(master, end - 100, end))
                    .put(ReplicaFixture.copyOf(master, end, end + 100))
                    .flip();

            ReplicationException refused = assertThrows(ReplicationException.class,
                    () -> replica.appendReplicated(end - 100, crossing));

            assertTrue(refused.getMessage().contains("crosses the segment end"), refused.getMessage());
            assertEquals(end - 100, replica.replicaWriteOffset());
        }
    }

    @Test
    void aReplicaRefusesAppendsAndAStoreWithItsOwnAppendsRefusesReplicatedBytes(@TempDir Path masterDir,
            @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            ReplicaFixture.fillMaster(master, 5);
            ReplicaFixture.replicateAll(master, replica, new Random(41));

            AppendResult refused = replica.append(TestStores.message("RepA", 0, 99, "t"));
            assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE, refused.status());
            assertEquals("replica store: writes come from the master", refused.remark());
            assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE,
                    replica.appendBatch(List.of(TestStores.message("RepA", 0, 99, "t"))).status());

            long max = master.getCommitLogMaxOffset();
            ReplicationException notAReplica = assertThrows(ReplicationException.class,
                    () -> master.appendReplicated(max, ByteBuffer.allocate(0)));
            assertTrue(notAReplica.getMessage().contains("took its own appends since it was opened"),
                    notAReplica.getMessage());
        }
    }

    @Test
    void aReplicaReopenedCleanlyResumesAtItsLastWholeRecord(@TempDir Path masterDir, @TempDir Path replicaDir)
            throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, COUNT);
            long published = written.get(COUNT / 3).commitLogOffset();
            try (MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
                ReplicaFixture.replicate(master, replica, new Random(43), published + 77);   // a record partly there
                assertEquals(published, replica.getCommitLogMaxOffset());
            }
            try (MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
                assertEquals(published, replica.getCommitLogMaxOffset());
                assertEquals(published, replica.replicaWriteOffset());
                assertFalse(replica.recoveryReport().truncatedTail());
                ReplicaFixture.replicateAll(master, replica, new Random(47));
                assertSameCommitLog(master, replica);
                assertSameQueues(master, replica);
            }
        }
    }

    @Test
    void aReplicaCrashWithATornRecordRecoversToItsLastWholeRecordAndResumes(@TempDir Path masterDir,
            @TempDir Path replicaDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, COUNT);
            AppendResult torn = written.get(COUNT / 2 + 10);
            long published = torn.commitLogOffset();
            assertTrue(published % TestStores.SEGMENT_BYTES != 0);
            try (MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
                ReplicaFixture.replicate(master, replica, new Random(53), published);
            }
            // As if the process died while the next record was being written: its first 60 bytes are in the file.
            writeAt(replicaDir, published, ReplicaFixture.copyOf(master, published, published + 60));
            RecoveryTest.simulateCrashWithOldCheckpoint(replicaDir);

            try (MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
                RecoveryReport report = replica.recoveryReport();
                assertFalse(report.cleanShutdown());
                assertTrue(report.truncatedTail());
                assertTrue(report.damaged().isEmpty());
                assertEquals(published, replica.getCommitLogMaxOffset());
                ReplicaFixture.replicateAll(master, replica, new Random(59));
                assertSameCommitLog(master, replica);
                assertSameQueues(master, replica);
            }
        }
    }

    @Test
    void readCommitLogServesPublishedBytesWithinOneSegment(@TempDir Path masterDir) throws Exception {
        AtomicReference<Double> diskUsed = new AtomicReference<>(10.0);
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir),
                StoreOptions.defaults().withDisk(root -> diskUsed.get()))) {
            ReplicaFixture.fillMaster(master, 400);
            long max = master.getCommitLogMaxOffset();
            assertEquals(0, master.readCommitLog(max, 100).remaining());
            assertNull(master.readCommitLog(max + 1, 100));
            assertEquals(100, master.readCommitLog(5, 100).remaining());
            assertEquals(10, master.readCommitLog(TestStores.SEGMENT_BYTES - 10, 1000).remaining());
            assertEquals(max - (max - 3), master.readCommitLog(max - 3, 1000).remaining());
            assertTrue(master.readCommitLog(0, 100).isReadOnly());

            diskUsed.set(80.0);
            assertEquals(1, master.runRetention());
            assertNull(master.readCommitLog(10, 100), "deleted");
            assertEquals(100, master.readCommitLog(TestStores.SEGMENT_BYTES, 100).remaining());
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Same min and max offsets and the same bytes from the replica's min offset on. */
    static void assertSameCommitLog(MessageStore master, MessageStore replica) {
        assertEquals(master.getCommitLogMaxOffset(), replica.getCommitLogMaxOffset());
        assertEquals(replica.getCommitLogMaxOffset(), replica.replicaWriteOffset());
        long at = replica.getCommitLogMinOffset();
        assertTrue(at >= master.getCommitLogMinOffset());
        while (at < master.getCommitLogMaxOffset()) {
            ByteBuffer expected = master.readCommitLog(at, 16 * 1024);
            ByteBuffer actual = replica.readCommitLog(at, 16 * 1024);
            assertEquals(expected, actual, "commit log bytes at " + at);
            at += expected.remaining();
        }
    }

    /** Every queue of the master has the same bounds and messages in the replica (once dispatched). */
    static void assertSameQueues(MessageStore master, MessageStore replica) throws InterruptedException {
        assertSameQueueContents(master, replica);
        for (String topic : List.of(ReplicaFixture.TOPICS[0], ReplicaFixture.TOPICS[1], "RepBatch")) {
            assertEquals(master.getQueueIds(topic).stream().sorted().toList(),
                    replica.getQueueIds(topic).stream().sorted().toList());
        }
    }

    /** Every queue of the master has the same bounds and messages in the replica (which may have more queues). */
    static void assertSameQueueContents(MessageStore master, MessageStore replica) throws InterruptedException {
        for (String topic : List.of(ReplicaFixture.TOPICS[0], ReplicaFixture.TOPICS[1], "RepBatch")) {
            for (int queueId : master.getQueueIds(topic)) {
                long max = master.getMaxOffsetInQueue(topic, queueId);
                AppendAndReadTest.awaitDispatched(replica, topic, queueId, max);
                long min = master.getMinOffsetInQueue(topic, queueId);
                assertEquals(min, replica.getMinOffsetInQueue(topic, queueId), topic + "-" + queueId + " min");
                assertEquals(max, replica.getMaxOffsetInQueue(topic, queueId), topic + "-" + queueId + " max");
                assertSameMessages(master, replica, topic, queueId, min);
            }
        }
    }

    static void assertSameMessages(MessageStore master, MessageStore replica, String topic, int queueId,
                                           long from) {
        long next = from;
        long max = master.getMaxOffsetInQueue(topic, queueId);
        while (next < max) {
            GetMessageResult expected = master.getMessages(topic, queueId, next, 32, 1 << 20, TagFilter.ALL);
            GetMessageResult actual = replica.getMessages(topic, queueId, next, 32, 1 << 20, TagFilter.ALL);
            assertEquals(expected.status(), actual.status());
            assertEquals(expected.nextBeginOffset(), actual.nextBeginOffset(), topic + "-" + queueId + " from " + next);
            assertEquals(expected.messages().size(), actual.messages().size());
            for (int i = 0; i < expected.messages().size(); i++) {
                FoundMessage want = expected.messages().get(i);
                FoundMessage got = actual.messages().get(i);
                assertEquals(want.queueOffset(), got.queueOffset());
                assertEquals(want.commitLogOffset(), got.commitLogOffset());
                assertEquals(want.tagsCode(), got.tagsCode());
                assertEquals(want.record(), got.record());
            }
            next = expected.nextBeginOffset();
        }
    }

    private static long firstQueueOffsetAtOrAfter(MessageStore master, String topic, int queueId, long from) {
        long next = 0;
        long max = master.getMaxOffsetInQueue(topic, queueId);
        while (next < max) {
            GetMessageResult read = master.getMessages(topic, queueId, next, 32, 1 << 20, TagFilter.ALL);
            for (FoundMessage found : read.messages()) {
                if (found.commitLogOffset() >= from) {
                    return found.queueOffset();
                }
            }
            next = read.nextBeginOffset();
        }
        return max;
    }

    private static List<Long> offsets(List<FoundMessage> found) {
        List<Long> offsets = new ArrayList<>();
        found.forEach(message -> offsets.add(message.commitLogOffset()));
        return offsets;
    }

    private static void writeAt(Path storeDir, long commitLogOffset, ByteBuffer bytes) throws IOException {
        long base = commitLogOffset / TestStores.SEGMENT_BYTES * TestStores.SEGMENT_BYTES;
        Path segment = storeDir.resolve("commitlog").resolve(String.format("%020d", base));
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(commitLogOffset - base);
            byte[] data = new byte[bytes.remaining()];
            bytes.duplicate().get(data);
            file.write(data);
        }
    }
}
