package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vrmq.store.epoch.EpochFile;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RetentionTest {
    /** 2026-01-01 04:30 UTC: inside the default deleteWhen hour "04". */
    private static final long AT_FOUR_UTC = 1_767_241_800_000L;
    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

    /** 04:30 UTC of the first day that starts after {@code afterMs}: inside deleteWhen "04". */
    private static long fourThirtyUtcOnADayAfter(long afterMs) {
        return (afterMs / DAY_MS + 1) * DAY_MS + TimeUnit.MINUTES.toMillis(270);
    }

    @Test
    void expiredSegmentsGoAtDeleteWhenExceptTheOneBeingWrittenAndQueueMinOffsetsFollow(@TempDir Path dir)
            throws Exception {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        StoreOptions options = StoreOptions.defaults().withClock(clock).withZone(ZoneOffset.UTC)
                .withDisk(root -> 10.0);
        try (MessageStore store = MessageStore.open(TestStores.config(dir), options)) {
            int count = 0;
            while (store.getCommitLogMaxOffset() < 3L * TestStores.SEGMENT_BYTES + 100) {
                store.append(TestStores.sized("Old", 0, 900));
                count++;
            }
            AppendAndReadTest.awaitDispatched(store, "Old", 0, count);
            clock.set(AT_FOUR_UTC - 2 * 3_600_000L);   // 02:30: the files are "young" by this clock and it is not 04
            assertEquals(0, store.runRetention());

            clock.set(fourThirtyUtcOnADayAfter(System.currentTimeMillis() + TimeUnit.HOURS.toMillis(73)));
            assertEquals(3, store.runRetention());
            assertEquals(3L * TestStores.SEGMENT_BYTES, store.getCommitLogMinOffset());
            long min = store.getMinOffsetInQueue("Old", 0);
            assertTrue(min > 0);
            assertEquals(GetMessageStatus.OFFSET_TOO_SMALL,
                    store.getMessages("Old", 0, 0, 1, 1 << 20, TagFilter.ALL).status());
            assertEquals(GetMessageStatus.FOUND,
                    store.getMessages("Old", 0, min, 1, 1 << 20, TagFilter.ALL).status());
            assertEquals(0, store.runRetention(), "the segment being written is never deleted");
        }
    }

    @Test
    void diskPastMaxUsedRatioDeletesTheOldestSegmentWhateverItsAge(@TempDir Path dir) {
        AtomicReference<Double> used = new AtomicReference<>(10.0);
        StoreOptions options = StoreOptions.defaults().withDisk(root -> used.get());
        try (MessageStore store = MessageStore.open(TestStores.config(dir), options)) {
            while (store.getCommitLogMaxOffset() < 2L * TestStores.SEGMENT_BYTES + 100) {
                store.append(TestStores.sized("Full", 0, 900));
            }
            used.set(80.0);
            assertEquals(1, store.runRetention());
            assertEquals(TestStores.SEGMENT_BYTES, store.getCommitLogMinOffset());
        }
    }

    @Test
    void theMinOffsetListenerLearnsTheNewMinOffsetAfterADeletion(@TempDir Path dir) throws Exception {
        AtomicReference<Double> used = new AtomicReference<>(10.0);
        StoreOptions options = StoreOptions.defaults().withDisk(root -> used.get());
        try (MessageStore store = MessageStore.open(TestStores.config(dir), options)) {
            List<Long> heard = new CopyOnWriteArrayList<>();
            store.setMinOffsetListener(heard::add);
            while (store.getCommitLogMaxOffset() < 2L * TestStores.SEGMENT_BYTES + 100) {
                store.append(TestStores.sized("Full", 0, 900));
            }
            assertEquals(0, store.runRetention());
            assertEquals(List.of(), heard, "nothing deleted, nothing heard");
            used.set(80.0);
            assertEquals(1, store.runRetention());
            assertEquals(List.of((long) TestStores.SEGMENT_BYTES), heard);

            EpochFile epochs = EpochFile.open(dir.resolve("epochs"));
            epochs.append(1, 0);
            epochs.append(2, 2L * TestStores.SEGMENT_BYTES);
            store.setMinOffsetListener(epochs::truncatePrefixBelow);
            assertEquals(1, store.runRetention());
            assertEquals(2, epochs.firstEntry().epoch(), "epoch 1 ended at the new min offset: pruned");
        }
    }

    @Test
    void pastTheCriticalRatioTheStoreIsReadOnlyAndSaysSoUntilSpaceFrees(@TempDir Path dir) {
        AtomicReference<Double> used = new AtomicReference<>(95.0);
        StoreOptions options = StoreOptions.defaults().withDisk(root -> used.get());
        try (MessageStore store = MessageStore.open(TestStores.config(dir), options)) {
            AppendResult refused = store.append(TestStores.sized("Full", 0, 10));
            assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE, refused.status());
            assertEquals("store is read-only: disk 95% used >= diskCriticalRatio 90%", refused.remark());
            assertTrue(store.isReadOnly());
            used.set(50.0);
            store.runRetention();
            assertEquals(AppendStatus.PUT_OK, store.append(TestStores.sized("Full", 0, 10)).status());
            assertEquals(0, store.append(TestStores.sized("Full", 1, 10)).queueOffset());
        }
    }
}
