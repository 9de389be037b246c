package io.vrmq.store.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reserved offsets log and its owner. A damaged file is refused with an error naming it (safe: the store does
 * not open and hand out offsets it cannot prove unused); only a torn last record, which a crash during its
 * unfinished write leaves, is ignored.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReservedOffsetsTest {
    private static final long BLOCK_MAX = 1024;
    private static final long FILE_MAX_BYTES = 64 * 1024;

    private final Clock clock = new Clock();

    @Test
    void boundsWrittenBeforeACrashAreReadBackAndAnOffsetIsNeverHandedOutAtOrAboveItsBound(@TempDir Path dir) {
        Path path = dir.resolve(ReservedOffsetsFile.FILE_NAME);
        ReservedOffsets reserved = ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock);
        QueueOffsets next = new QueueOffsets();
        long handedOutEnd = 0;
        for (int i = 0; i < 500; i++) {
            long offset = next.take("T", 1, 1);
            reserved.cover("T", 1, offset + 1, next);
            assertTrue(offset < reserved.bound("T", 1), "offset " + offset + " not below its bound");
            handedOutEnd = offset + 1;
        }
        assertTrue(reserved.writeCount() < 10, "blocks grow for a busy queue: " + reserved.writeCount());

        ReservedOffsets reopened = ReservedOffsets.open(path, false, BLOCK_MAX, FILE_MAX_BYTES, clock);
        long bound = reopened.recovered().get("T").get(1);
        assertTrue(bound >= handedOutEnd, "bound " + bound + " below the offsets handed out " + handedOutEnd);
        assertEquals(bound, ReservedOffsets.open(path, false, BLOCK_MAX, FILE_MAX_BYTES, clock).recovered()
                .get("T").get(1), "a second crash before any append still finds the bound");
        assertTrue(ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock).recovered().isEmpty(),
                "a clean shutdown needs no bounds");
    }

    @Test
    void aQuietQueueKeepsASmallBlockAndOneWriteRenewsEveryQueueNearItsBound(@TempDir Path dir) {
        ReservedOffsets reserved = ReservedOffsets.open(dir.resolve("r"), true, BLOCK_MAX, FILE_MAX_BYTES, clock);
        QueueOffsets next = new QueueOffsets();
        for (int queueId = 0; queueId < 8; queueId++) {
            reserved.cover("T", queueId, next.take("T", queueId, 1) + 1, next);
        }
        assertEquals(8, reserved.writeCount());
        for (int queueId = 0; queueId < 8; queueId++) {   // every queue uses most of its block
            next.take("T", queueId, (int) ReservedOffsets.INITIAL_BLOCK - 10);
        }
        clock.advance(5_000);
        reserved.cover("T", 0, next.take("T", 0, 20) + 20, next);
        long writes = reserved.writeCount();
        for (int queueId = 1; queueId < 8; queueId++) {
            reserved.cover("T", queueId, next.take("T", queueId, 20) + 20, next);
        }
        assertEquals(writes, reserved.writeCount(), "the other queues were renewed in the same write");
        assertEquals(next.peek("T", 0) + ReservedOffsets.INITIAL_BLOCK, reserved.bound("T", 0),
                "a block used up in 5 s keeps its size");
    }

    @Test
    void theLogIsCompactedBeforeItPassesItsLimitAndKeepsEveryBound(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("r");
        long fileMaxBytes = 1024;
        ReservedOffsets reserved = ReservedOffsets.open(path, true, ReservedOffsets.INITIAL_BLOCK, fileMaxBytes,
                clock);
        QueueOffsets next = new QueueOffsets();
        for (int i = 0; i < 20_000; i++) {
            int queueId = i % 3;
            reserved.cover("T", queueId, next.take("T", queueId, 1) + 1, next);
            assertTrue(Files.size(path) <= fileMaxBytes);
        }
        Map<Integer, Long> read = ReservedOffsetsFile.read(path).bounds().get("T");
        for (int queueId = 0; queueId < 3; queueId++) {
            assertEquals(reserved.bound("T", queueId), read.get(queueId));
            assertTrue(read.get(queueId) >= next.peek("T", queueId));
        }
    }

    /** After a clean restart every queue is known but has no bound: one forced write covers them all. */
    @Test
    void theFirstWriteAfterTheOpenCoversEveryKnownQueue(@TempDir Path dir) {
        Path path = dir.resolve(ReservedOffsetsFile.FILE_NAME);
        ReservedOffsets reserved = ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock, true);
        QueueOffsets next = new QueueOffsets();
        int queues = 1_000;
        for (int queueId = 0; queueId < queues; queueId++) {
            next.seed("T" + queueId % 10, queueId, 7);   // as recovery seeds them
        }
        for (int queueId = 0; queueId < queues; queueId++) {
            String topic = "T" + queueId % 10;
            long offset = next.take(topic, queueId, 1);
            reserved.cover(topic, queueId, offset + 1, next);
            assertTrue(offset < reserved.bound(topic, queueId), "offset " + offset + " not below its bound");
        }
        assertEquals(1, reserved.writeCount(), "one write for the first append of every known queue");
        reserved.close();

        Map<String, Map<Integer, Long>> read = ReservedOffsets.open(path, false, BLOCK_MAX, FILE_MAX_BYTES, clock)
                .recovered();
        for (int queueId = 0; queueId < queues; queueId++) {
            assertTrue(read.get("T" + queueId % 10).get(queueId) >= 8, "queue " + queueId + " lost its bound");
        }
    }

    /**
     * A new broker's configured topics: queues the store was told of but that were never written get their first
     * appends with one forced write (the first write covers them), not one each.
     */
    @Test
    void queuesDeclaredBeforeTheFirstWriteGetTheirFirstAppendsWithOneForcedWrite(@TempDir Path dir) {
        ReservedOffsets reserved = ReservedOffsets.open(dir.resolve("r"), true, BLOCK_MAX, FILE_MAX_BYTES, clock, true);
        QueueOffsets next = new QueueOffsets();
        int queues = 1_000;
        for (int queueId = 0; queueId < queues; queueId++) {
            assertTrue(next.addIfAbsent("T" + queueId % 10, queueId));   // as MessageStore.declareQueues does
        }
        takeOneOffsetInEach(reserved, next, queues);
        assertEquals(1, reserved.writeCount(), "one write for the first append of every declared queue");
        reserved.close();
    }

    /** A topic created at runtime: its queues' first bounds come ahead of their first appends, in one write. */
    @Test
    void queuesDeclaredAfterTheFirstWriteAreCoveredAheadByTheRenewerInOneWrite(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("r");
        ReservedOffsets reserved = ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock, true);
        QueueOffsets next = new QueueOffsets();
        reserved.cover("Busy", 0, next.take("Busy", 0, 1) + 1, next);
        int queues = 1_000;
        declare(reserved, next, queues);
        awaitBoundAbove(reserved, "T9", queues - 1, 0);
        assertEquals(2, reserved.writeCount(), "the first write, then one write ahead for every declared queue");
        takeOneOffsetInEach(reserved, next, queues);
        assertEquals(2, reserved.writeCount(), "no first append waited for a write of its own");
        reserved.close();
        Map<String, Map<Integer, Long>> read = ReservedOffsets.open(path, false, BLOCK_MAX, FILE_MAX_BYTES, clock)
                .recovered();
        for (int queueId = 0; queueId < queues; queueId++) {
            assertTrue(read.get("T" + queueId % 10).get(queueId) >= 1, "queue " + queueId + " has no bound");
        }
    }

    /** Without a renewer the writer writes the declared queues' first bounds at once, still in one write. */
    @Test
    void withoutARenewerQueuesDeclaredAfterTheFirstWriteAreCoveredAtOnceInOneWrite(@TempDir Path dir) {
        ReservedOffsets reserved = ReservedOffsets.open(dir.resolve("r"), true, BLOCK_MAX, FILE_MAX_BYTES, clock);
        QueueOffsets next = new QueueOffsets();
        reserved.cover("Busy", 0, next.take("Busy", 0, 1) + 1, next);
        int queues = 1_000;
        declare(reserved, next, queues);
        assertEquals(2, reserved.writeCount());
        takeOneOffsetInEach(reserved, next, queues);
        assertEquals(2, reserved.writeCount(), "no first append waited for a write of its own");
    }

    /** Declaring a queue that has a counter (recovered, raised to a bound) changes neither counter nor bound. */
    @Test
    void declaringAKnownQueueLeavesItsCounterAndBoundAlone(@TempDir Path dir) {
        ReservedOffsets reserved = ReservedOffsets.open(dir.resolve("r"), true, BLOCK_MAX, FILE_MAX_BYTES, clock);
        QueueOffsets next = new QueueOffsets();
        next.seed("T", 0, 500);   // as recovery leaves it after a crash, raised to the bound read
        reserved.cover("Busy", 0, next.take("Busy", 0, 1) + 1, next);
        long bound = reserved.bound("T", 0);
        assertFalse(next.addIfAbsent("T", 0));
        reserved.coverAhead(Map.of("T", List.of(0)));
        assertEquals(500, next.peek("T", 0), "a recovered counter is never lowered");
        assertEquals(bound, reserved.bound("T", 0));
        assertTrue(bound > 500);
    }

    @Test
    void aTopicDeletedBeforeTheRenewerCoversItsDeclaredQueuesKeepsNoBound(@TempDir Path dir) {
        Path path = dir.resolve("r");
        ReservedOffsets reserved = ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock, true);
        QueueOffsets next = new QueueOffsets();
        reserved.cover("Busy", 0, next.take("Busy", 0, 1) + 1, next);
        next.addIfAbsent("Gone", 0);
        reserved.coverAhead(Map.of("Gone", List.of(0)));
        reserved.removeTopic("Gone");   // the renewal asked above may still be waiting for the renewer
        reserved.close();
        assertEquals(0, reserved.bound("Gone", 0));
        Map<String, Map<Integer, Long>> read = ReservedOffsetsFile.read(path).bounds();
        assertFalse(read.containsKey("Gone") && read.get("Gone").containsKey(0), "bounds read: " + read);
    }

    /** Queues 0 .. count - 1, topics T0 .. T9, declared as MessageStore.declareQueues does (new counters only). */
    private static void declare(ReservedOffsets reserved, QueueOffsets next, int queues) {
        Map<String, List<Integer>> added = new HashMap<>();
        for (int queueId = 0; queueId < queues; queueId++) {
            String topic = "T" + queueId % 10;
            assertTrue(next.addIfAbsent(topic, queueId));
            added.computeIfAbsent(topic, t -> new ArrayList<>()).add(queueId);
        }
        reserved.coverAhead(added);
    }

    /** The first append of each of the queues {@link #declare} names, each below its bound. */
    private static void takeOneOffsetInEach(ReservedOffsets reserved, QueueOffsets next, int queues) {
        for (int queueId = 0; queueId < queues; queueId++) {
            String topic = "T" + queueId % 10;
            long offset = next.take(topic, queueId, 1);
            assertEquals(0, offset);
            reserved.cover(topic, queueId, offset + 1, next);
            assertTrue(offset < reserved.bound(topic, queueId), "offset " + offset + " not below its bound");
        }
    }

    @Test
    void aDeletedTopicsBoundsAreForgotten(@TempDir Path dir) {
        Path path = dir.resolve("r");
        ReservedOffsets reserved = ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock);
        QueueOffsets next = new QueueOffsets();
        reserved.cover("Gone", 0, next.take("Gone", 0, 1) + 1, next);
        reserved.cover("Kept", 0, next.take("Kept", 0, 1) + 1, next);
        reserved.removeTopic("Gone");
        Map<String, Map<Integer, Long>> read = ReservedOffsetsFile.read(path).bounds();
        assertFalse(read.containsKey("Gone") && read.get("Gone").containsKey(0));
        assertTrue(read.get("Kept").get(0) > 0);
    }

    @Test
    void aQueuePastHalfItsBlockIsRenewedByTheRenewerBeforeTheWriterReachesItsBound(@TempDir Path dir)
            throws Exception {
        Path path = dir.resolve("r");
        ReservedOffsets reserved = ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock, true);
        QueueOffsets next = new QueueOffsets();
        reserved.cover("T", 1, next.take("T", 1, 1) + 1, next);
        long firstBound = reserved.bound("T", 1);
        long handedOutEnd = 1;
        while (firstBound - handedOutEnd >= ReservedOffsets.INITIAL_BLOCK / 2) {   // to past half of the block
            long offset = next.take("T", 1, 1);
            reserved.cover("T", 1, offset + 1, next);
            handedOutEnd = offset + 1;
        }
        awaitBoundAbove(reserved, "T", 1, firstBound);
        long writes = reserved.writeCount();
        assertEquals(2, writes, "the writer's first bound and the renewer's one renewal");
        long renewedBound = reserved.bound("T", 1);
        while (handedOutEnd <= firstBound) {   // past the first bound, below the renewed one
            long offset = next.take("T", 1, 1);
            reserved.cover("T", 1, offset + 1, next);
            assertTrue(offset < reserved.bound("T", 1), "offset " + offset + " not below its bound");
            handedOutEnd = offset + 1;
        }
        assertEquals(writes, reserved.writeCount(), "the writer passed the first bound " + firstBound
                + " without a write of its own (renewed bound " + renewedBound + ")");
        reserved.close();
        long bound = ReservedOffsets.open(path, false, BLOCK_MAX, FILE_MAX_BYTES, clock).recovered().get("T").get(1);
        assertTrue(bound >= handedOutEnd, "bound " + bound + " read after a crash is below the offsets handed out "
                + handedOutEnd);
    }

    @Test
    void aRenewalAskedBeforeTheTopicWasDeletedWritesNothingForIt(@TempDir Path dir) {
        Path path = dir.resolve("r");
        ReservedOffsets reserved = ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock, true);
        QueueOffsets next = new QueueOffsets();
        for (int i = 0; i <= ReservedOffsets.INITIAL_BLOCK / 2; i++) {
            reserved.cover("Gone", 0, next.take("Gone", 0, 1) + 1, next);
        }
        reserved.removeTopic("Gone");   // the renewal asked above may still be waiting for the renewer
        reserved.close();
        assertEquals(0, reserved.bound("Gone", 0));
        Map<String, Map<Integer, Long>> read = ReservedOffsetsFile.read(path).bounds();
        assertFalse(read.containsKey("Gone") && read.get("Gone").containsKey(0), "bounds read: " + read);
    }

    private static void awaitBoundAbove(ReservedOffsets reserved, String topic, int queueId, long bound)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (reserved.bound(topic, queueId) <= bound) {
            assertTrue(System.nanoTime() < deadline, "no renewal of " + topic + "-" + queueId + " within 20 s");
            Thread.sleep(5);
        }
    }

    @Test
    void aTornLastRecordIsIgnoredAndTheBoundsBeforeItAreKept(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("r");
        ReservedOffsetsFile file = ReservedOffsetsFile.rewrite(path,
                List.of(new ReservedOffsetsFile.Entry("T", 0, 64)));
        long firstEnd = file.sizeBytes();
        file.append(List.of(new ReservedOffsetsFile.Entry("T", 0, 192), new ReservedOffsetsFile.Entry("U", 3, 64)));
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
            raf.setLength(firstEnd + 11);   // the second record's write was cut by the crash
        }
        ReservedOffsetsFile.Contents contents = ReservedOffsetsFile.read(path);
        assertTrue(contents.hadTornTail());
        assertEquals(Map.of("T", Map.of(0, 64L)), contents.bounds());

        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {   // whole length, wrong bytes
            raf.setLength(firstEnd);
            raf.seek(firstEnd);
            raf.write(new byte[] {0, 0, 0, 4, 1, 2, 3, 4, 9, 9, 9, 9});
        }
        assertTrue(ReservedOffsetsFile.read(path).hadTornTail());
        assertEquals(Map.of("T", Map.of(0, 64L)), ReservedOffsetsFile.read(path).bounds());
    }

    @Test
    void garbageOrAWrongHeaderIsRefusedNamingTheFileAndAMissingFileReadsAsEmpty(@TempDir Path dir)
            throws Exception {
        Path path = dir.resolve("r");
        assertFalse(ReservedOffsetsFile.read(path).existed());
        ReservedOffsetsFile file = ReservedOffsetsFile.rewrite(path,
                List.of(new ReservedOffsetsFile.Entry("T", 0, 64)));
        file.append(List.of(new ReservedOffsetsFile.Entry("T", 0, 128)));
        byte[] bytes = Files.readAllBytes(path);
        bytes[ReservedOffsetsFile.HEADER_BYTES + ReservedOffsetsFile.RECORD_HEADER_BYTES + 3] ^= 0x40;
        Files.write(path, bytes);   // the first record's body no longer matches its CRC, a record follows it
        IllegalStateException middle = assertThrows(IllegalStateException.class,
                () -> ReservedOffsetsFile.read(path));
        assertTrue(middle.getMessage().contains(path.toString()), middle.getMessage());
        assertThrows(IllegalStateException.class,
                () -> ReservedOffsets.open(path, false, BLOCK_MAX, FILE_MAX_BYTES, clock),
                "a crash start refuses the damaged file");
        assertTrue(ReservedOffsets.open(path, true, BLOCK_MAX, FILE_MAX_BYTES, clock).recovered().isEmpty(),
                "a clean start does not need it and starts it afresh");

        Files.write(path, "not a reserved offsets file".getBytes());
        IllegalStateException header = assertThrows(IllegalStateException.class, () -> ReservedOffsetsFile.read(path));
        assertTrue(header.getMessage().contains("header"), header.getMessage());
        Files.write(path, new byte[3]);
        assertThrows(IllegalStateException.class, () -> ReservedOffsetsFile.read(path));
    }

    /** A clock the test moves by hand. */
    private static final class Clock implements InstantSource {
        private long millis = 1_700_000_000_000L;

        void advance(long deltaMillis) {
            millis += deltaMillis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public long millis() {
            return millis;
        }
    }
}
