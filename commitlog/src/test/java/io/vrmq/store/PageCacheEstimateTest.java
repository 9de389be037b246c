package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** RocketMQ's page-cache rule on a machine of 10,000 bytes: records more than 4,000 bytes behind the max are on disk. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PageCacheEstimateTest {
    private static final long MEMORY_BYTES = 10_000;
    private static final long CACHED_BYTES = MEMORY_BYTES * 40 / 100;   // default accessMessageInMemoryMaxRatio
    private static final int COUNT = 20;

    @Test
    void readsFarBehindTheMaxOffsetCountAsDiskReadsAndSuggestPullingFromSlave(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir),
                StoreOptions.defaults().withPhysicalMemoryBytes(MEMORY_BYTES))) {
            List<AppendResult> written = fill(store);
            long max = store.getCommitLogMaxOffset();
            assertTrue(max - written.get(1).commitLogOffset() > CACHED_BYTES);
            assertTrue(max - written.get(COUNT - 1).commitLogOffset() <= CACHED_BYTES);
            assertEquals(1.0, store.stats().pageCacheHitRatio(), "no reads yet");

            GetMessageResult old = store.getMessages("Mem", 0, 0, 2, 1 << 20, TagFilter.ALL);
            assertTrue(old.suggestPullingFromSlave());
            GetMessageResult newest = store.getMessages("Mem", 0, COUNT - 1, 1, 1 << 20, TagFilter.ALL);
            assertFalse(newest.suggestPullingFromSlave());
            GetMessageResult endingInCache = store.getMessages("Mem", 0, 10, 10, 1 << 20, TagFilter.ALL);
            assertFalse(endingInCache.suggestPullingFromSlave(), "the last message read decides");

            long expectedDisk = 0;
            for (int queueOffset : List.of(0, 1, COUNT - 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)) {
                if (max - written.get(queueOffset).commitLogOffset() > CACHED_BYTES) {
                    expectedDisk++;
                }
            }
            StoreStats stats = store.stats();
            assertEquals(expectedDisk, stats.diskReads());
            assertEquals(13 - expectedDisk, stats.pageCacheHitReads());
            assertEquals((13.0 - expectedDisk) / 13, stats.pageCacheHitRatio(), 1e-9);
        }
    }

    @Test
    void readsThatFindNothingNeitherSuggestASlaveNorCount(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir),
                StoreOptions.defaults().withPhysicalMemoryBytes(MEMORY_BYTES))) {
            fill(store);
            assertFalse(store.getMessages("Mem", 0, COUNT, 1, 1 << 20, TagFilter.ALL).suggestPullingFromSlave());
            assertFalse(store.getMessages("Mem", 0, 0, 5, 1 << 20, code -> false).suggestPullingFromSlave());
            assertEquals(0, store.stats().diskReads() + store.stats().pageCacheHitReads());
        }
    }

    @Test
    void aRatioOf100KeepsEveryReadWithinMemoryInThePageCache(@TempDir Path dir) throws Exception {
        StoreConfig config = TestStores.config(dir).with("accessMessageInMemoryMaxRatio", 100);
        try (MessageStore store = MessageStore.open(config,
                StoreOptions.defaults().withPhysicalMemoryBytes(1 << 20))) {
            fill(store);
            assertFalse(store.getMessages("Mem", 0, 0, COUNT, 1 << 20, TagFilter.ALL).suggestPullingFromSlave());
            assertEquals(COUNT, store.stats().pageCacheHitReads());
            assertEquals(0, store.stats().diskReads());
        }
    }

    /** COUNT records of about 1,100 bytes in queue Mem-0, dispatched. */
    private static List<AppendResult> fill(MessageStore store) throws InterruptedException {
        List<AppendResult> written = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            written.add(store.append(TestStores.sized("Mem", 0, 1_000)));
        }
        AppendAndReadTest.awaitDispatched(store, "Mem", 0, COUNT);
        return written;
    }
}
