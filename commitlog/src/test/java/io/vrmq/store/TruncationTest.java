package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** truncateTo: the CommitLog and everything built from it cut back to a record boundary, as a new master needs. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TruncationTest {
    private static final String TOPIC = "Cut";
    private static final int QUEUES = 2;
    /** About 2.5 segments of 64 KiB at ~230 bytes per record. */
    private static final int COUNT = 700;

    @Test
    void truncatingInsideASegmentDropsLaterRecordsAndTheirQueueEntriesAndAppendsContinueThere(@TempDir Path dir)
            throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<AppendResult> written = fill(store, COUNT);
            int firstDropped = findInsideSegment(written, 1);
            long cut = written.get(firstDropped).commitLogOffset();

            assertEquals(cut, store.truncateTo(cut));

            assertEquals(cut, store.getCommitLogMaxOffset());
            assertNull(store.lookMessageByOffset(cut));
            assertTrue(store.dispatchedOffset() <= cut);
            Map<Integer, Long> kept = queueEnds(written, firstDropped);
            for (int queueId = 0; queueId < QUEUES; queueId++) {
                assertEquals(kept.get(queueId), store.getMaxOffsetInQueue(TOPIC, queueId), "queue " + queueId);
                assertEquals(GetMessageStatus.OFFSET_OVERFLOW_ONE,
                        store.getMessages(TOPIC, queueId, kept.get(queueId), 8, 1 << 20, TagFilter.ALL).status());
            }
            assertTrue(store.queryMessage(TOPIC, "key-" + firstDropped, 4, 0, Long.MAX_VALUE).isEmpty());

            // Appends after the cut take its place, with queue offsets right after the last kept entry.
            AppendResult next = store.append(TestStores.message(TOPIC, 0, 5000, "new"));
            assertEquals(AppendStatus.PUT_OK, next.status());
            assertEquals(cut, next.commitLogOffset());
            assertEquals(kept.get(0), next.queueOffset());
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, kept.get(0) + 1);
            GetMessageResult read = store.getMessages(TOPIC, 0, kept.get(0), 8, 1 << 20, TagFilter.ALL);
            assertEquals(1, read.messages().size());
            assertEquals(TOPIC + "/0/5000/" + "x".repeat(0), TestStores.bodyText(read.messages().get(0).record()));
            assertTrue(store.queryMessage(TOPIC, "key-" + firstDropped, 4, 0, Long.MAX_VALUE).isEmpty(),
                    "the index entry of the dropped record now points at another record: not returned");
            // The index is written after the consume queue entry the wait above saw: wait for it too.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (store.queryMessage(TOPIC, "key-5000", 4, 0, Long.MAX_VALUE).isEmpty()
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, store.queryMessage(TOPIC, "key-5000", 4, 0, Long.MAX_VALUE).size());
        }
    }

    @Test
    void truncatingAtASegmentStartDeletesThatSegmentAndTheLaterOnes(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<AppendResult> written = fill(store, COUNT);
            long cut = TestStores.SEGMENT_BYTES;
            int firstDropped = firstAtOrAfter(written, cut);

            store.truncateTo(cut);

            assertEquals(cut, store.getCommitLogMaxOffset());
            assertEquals(List.of(String.format("%020d", 0)), segmentFiles(dir));
            Map<Integer, Long> kept = queueEnds(written, firstDropped);
            for (int queueId = 0; queueId < QUEUES; queueId++) {
                assertEquals(kept.get(queueId), store.getMaxOffsetInQueue(TOPIC, queueId));
            }
            AppendResult next = store.append(TestStores.message(TOPIC, 1, 6000, "new"));
            assertEquals(cut, next.commitLogOffset(), "a new segment starts at the cut");
            assertEquals(kept.get(1), next.queueOffset());
        }
    }

    @Test
    void aReplicaCutAcrossSeveralSegmentsFollowsANewMasterThatDivergedThere(@TempDir Path oldMasterDir,
            @TempDir Path newMasterDir, @TempDir Path replicaDir) throws Exception {
        try (MessageStore oldMaster = MessageStore.open(TestStores.config(oldMasterDir));
             MessageStore newMaster = MessageStore.open(TestStores.config(newMasterDir));
             MessageStore replica = MessageStore.open(TestStores.config(replicaDir))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(oldMaster, 900);
            ReplicaFixture.replicateAll(oldMaster, replica, new Random(3));
            long diverged = written.get(200).commitLogOffset();   // the new master had copied only this far
            assertTrue(oldMaster.getCommitLogMaxOffset() - diverged > 2L * TestStores.SEGMENT_BYTES);
            ReplicaFixture.replicate(oldMaster, newMaster, new Random(5), 0, diverged);
            newMaster.switchToOwnAppends();
            for (int i = 0; i < 300; i++) {
                String topic = ReplicaFixture.TOPICS[i % 2];
                assertEquals(AppendStatus.PUT_OK, newMaster.append(ReplicaFixture.message(topic, i % 3, 10_000 + i,
                        "n", 150)).status());
            }

            replica.truncateTo(diverged);
            ReplicaFixture.replicateAll(newMaster, replica, new Random(7));

            ReplicationTest.assertSameCommitLog(newMaster, replica);
            ReplicationTest.assertSameQueueContents(newMaster, replica);
            assertEquals(0, replica.getMaxOffsetInQueue("RepBatch", 0), "the batch queue lost every entry");
        }
    }

    @Test
    void reopeningAfterATruncationCleanlyOrAfterACrashRecoversTheTruncatedState(@TempDir Path dir) throws Exception {
        long cut;
        Map<Integer, Long> kept;
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<AppendResult> written = fill(store, COUNT);
            int firstDropped = findInsideSegment(written, 1);
            cut = written.get(firstDropped).commitLogOffset();
            kept = queueEnds(written, firstDropped);
            store.truncateTo(cut);
        }
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertTruncatedState(store, cut, kept);
        }
        RecoveryTest.simulateCrashWithOldCheckpoint(dir);
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertFalse(store.recoveryReport().cleanShutdown());
            assertFalse(store.recoveryReport().truncatedTail(), "the cut left zeroes, not a torn tail");
            assertTruncatedState(store, cut, kept);
            AppendResult next = store.append(TestStores.message(TOPIC, 0, 7000, "new"));
            assertEquals(cut, next.commitLogOffset());
            assertEquals(kept.get(0), next.queueOffset());
        }
    }

    @Test
    void aCrashRightAfterTheCutRecoversItFromTheCheckpointItWrote(@TempDir Path dir) throws Exception {
        long cut;
        Map<Integer, Long> kept;
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<AppendResult> written = fill(store, COUNT);
            int firstDropped = findInsideSegment(written, 1) + 17;
            cut = written.get(firstDropped).commitLogOffset();
            kept = queueEnds(written, firstDropped);
            store.truncateTo(cut);
            Files.write(dir.resolve("abort"), new byte[0]);   // close below removes it; put it back as a crash would
        }
        Files.write(dir.resolve("abort"), new byte[0]);
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertFalse(store.recoveryReport().cleanShutdown());
            assertTruncatedState(store, cut, kept);
        }
    }

    @Test
    void offsetsInsideARecordOrBelowTheMinOffsetAreRefusedAndTheMaxOffsetChangesNothing(@TempDir Path dir)
            throws Exception {
        AtomicReference<Double> diskUsed = new AtomicReference<>(10.0);
        try (MessageStore store = MessageStore.open(TestStores.config(dir),
                StoreOptions.defaults().withDisk(root -> diskUsed.get()))) {
            List<AppendResult> written = fill(store, COUNT);
            long max = store.getCommitLogMaxOffset();
            long inside = written.get(300).commitLogOffset() + 7;
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> store.truncateTo(inside));
            assertTrue(refused.getMessage().contains("not a record boundary"), refused.getMessage());
            assertEquals(max, store.getCommitLogMaxOffset(), "nothing was cut");

            assertEquals(max, store.truncateTo(max));
            assertEquals(max, store.truncateTo(max + 100));

            diskUsed.set(80.0);
            assertEquals(1, store.runRetention());
            assertThrows(IllegalArgumentException.class, () -> store.truncateTo(written.get(3).commitLogOffset()));
            assertEquals(max, store.getCommitLogMaxOffset());
        }
    }

    @Test
    void aFillerStartIsABoundaryAndAppendsAfterACutThereRollAsBefore(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<AppendResult> written = fill(store, COUNT);
            int lastInFirst = firstAtOrAfter(written, TestStores.SEGMENT_BYTES) - 1;
            long fillerStart = written.get(lastInFirst).commitLogOffset() + written.get(lastInFirst).sizeBytes();
            assertTrue(fillerStart < TestStores.SEGMENT_BYTES);

            store.truncateTo(fillerStart);

            assertEquals(fillerStart, store.getCommitLogMaxOffset());
            assertNull(store.lookMessageByOffset(fillerStart));
            AppendResult next = store.append(TestStores.message(TOPIC, 0, 9000, "t"));
            assertEquals(TestStores.SEGMENT_BYTES, next.commitLogOffset(), "too big for the room: a filler again");
            assertEquals(queueEnds(written, lastInFirst + 1).get(0), next.queueOffset());
        }
    }

    @Test
    void truncatingAStoreToItsMinOffsetEmptiesItAndAppendsStartThere(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            fill(store, 50);
            store.truncateTo(0);
            assertEquals(0, store.getCommitLogMaxOffset());
            assertEquals(0, store.getMaxOffsetInQueue(TOPIC, 0));
            AppendResult first = store.append(TestStores.message(TOPIC, 0, 1, "t"));
            assertEquals(0, first.commitLogOffset());
            assertEquals(0, first.queueOffset());
        }
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertFalse(store.recoveryReport().consumeQueuesRebuilt(), "an emptied queue keeps a zeroed file");
            assertEquals(1, store.getMaxOffsetInQueue(TOPIC, 0));
        }
    }

    // ---------------------------------------------------------------- helpers

    /** COUNT messages over QUEUES queues of TOPIC, all dispatched. */
    static List<AppendResult> fill(MessageStore store, int count) throws InterruptedException {
        List<AppendResult> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            AppendResult result = store.append(TestStores.message(TOPIC, i % QUEUES, i, "t" + (i % 3)));
            assertEquals(AppendStatus.PUT_OK, result.status());
            written.add(result);
        }
        for (int queueId = 0; queueId < QUEUES; queueId++) {
            AppendAndReadTest.awaitDispatched(store, TOPIC, queueId, queueEnds(written, count).get(queueId));
        }
        return written;
    }

    /** A message in the middle of segment {@code segmentIndex} (not its first). */
    private static int findInsideSegment(List<AppendResult> written, int segmentIndex) {
        long middle = segmentIndex * (long) TestStores.SEGMENT_BYTES + TestStores.SEGMENT_BYTES / 2;
        return firstAtOrAfter(written, middle);
    }

    private static int firstAtOrAfter(List<AppendResult> written, long offset) {
        for (int i = 0; i < written.size(); i++) {
            if (written.get(i).commitLogOffset() >= offset) {
                return i;
            }
        }
        throw new AssertionError("nothing written at or after " + offset);
    }

    /** Per queue, the next queue offset once messages [0, end) are kept. */
    static Map<Integer, Long> queueEnds(List<AppendResult> written, int end) {
        Map<Integer, Long> ends = new HashMap<>();
        for (int queueId = 0; queueId < QUEUES; queueId++) {
            ends.put(queueId, 0L);
        }
        for (int i = 0; i < end; i++) {
            ends.merge(i % QUEUES, written.get(i).queueOffset() + 1, Math::max);
        }
        return ends;
    }

    private static void assertTruncatedState(MessageStore store, long cut, Map<Integer, Long> kept)
            throws InterruptedException {
        assertEquals(cut, store.getCommitLogMaxOffset());
        for (int queueId = 0; queueId < QUEUES; queueId++) {
            long end = kept.get(queueId);
            AppendAndReadTest.awaitDispatched(store, TOPIC, queueId, end);
            assertEquals(end, store.getMaxOffsetInQueue(TOPIC, queueId), "queue " + queueId);
            GetMessageResult last = store.getMessages(TOPIC, queueId, end - 1, 8, 1 << 20, TagFilter.ALL);
            assertEquals(1, last.messages().size());
            assertNotNull(store.lookMessageByOffset(last.messages().get(0).commitLogOffset()));
        }
    }

    private static List<String> segmentFiles(Path dir) throws java.io.IOException {
        try (Stream<Path> files = Files.list(dir.resolve("commitlog"))) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
