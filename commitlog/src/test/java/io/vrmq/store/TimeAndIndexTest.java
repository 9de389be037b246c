package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimeAndIndexTest {
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void offsetByTimeFindsTheBoundariesAroundATimestamp(@TempDir Path dir) throws Exception {
        MutableClock clock = new MutableClock(T0);
        try (MessageStore store = MessageStore.open(TestStores.config(dir), StoreOptions.defaults().withClock(clock))) {
            for (int i = 0; i < 30; i++) {   // three messages per second: offsets 3s..3s+2 at T0 + s seconds
                clock.set(T0 + (i / 3) * 1000L);
                store.append(TestStores.message("Timed", 0, i, "t"));
            }
            AppendAndReadTest.awaitDispatched(store, "Timed", 0, 30);
            assertEquals(9, store.getOffsetInQueueByTime("Timed", 0, T0 + 3000, TimeBoundary.LOWER));
            assertEquals(11, store.getOffsetInQueueByTime("Timed", 0, T0 + 3000, TimeBoundary.UPPER));
            assertEquals(12, store.getOffsetInQueueByTime("Timed", 0, T0 + 3500, TimeBoundary.LOWER));
            assertEquals(11, store.getOffsetInQueueByTime("Timed", 0, T0 + 3500, TimeBoundary.UPPER));
            assertEquals(0, store.getOffsetInQueueByTime("Timed", 0, T0 - 1, TimeBoundary.LOWER));
            assertEquals(30, store.getOffsetInQueueByTime("Timed", 0, T0 + 60_000, TimeBoundary.LOWER));
            assertEquals(29, store.getOffsetInQueueByTime("Timed", 0, T0 + 60_000, TimeBoundary.UPPER));
            assertEquals(T0, store.getEarliestMessageTime("Timed", 0));
            assertEquals(T0 + 4000, store.getMessageStoreTimestamp("Timed", 0, 13));
            assertEquals(T0, store.getEarliestMessageTime());
        }
    }

    @Test
    void storeTimesNeverGoBackwardsWhenTheClockDoes(@TempDir Path dir) {
        MutableClock clock = new MutableClock(T0);
        try (MessageStore store = MessageStore.open(TestStores.config(dir), StoreOptions.defaults().withClock(clock))) {
            store.append(TestStores.message("Timed", 0, 0, "t"));
            clock.set(T0 - 5000);
            assertEquals(T0, store.append(TestStores.message("Timed", 0, 1, "t")).storeTimestamp());
        }
    }

    @Test
    void queryByKeyUniqKeyAndTagFindsOnlyMatchingMessagesNewestFirst(@TempDir Path dir) throws Exception {
        MutableClock clock = new MutableClock(T0);
        try (MessageStore store = MessageStore.open(TestStores.config(dir), StoreOptions.defaults().withClock(clock))) {
            for (int i = 0; i < 150; i++) {   // 3 index entries each: 450 > maxIndexCount 200, so files roll
                clock.set(T0 + i * 1000L);
                store.append(TestStores.message(i % 2 == 0 ? "Idx" : "Other", 0, i, i % 3 == 0 ? "three" : "no"));
            }
            AppendAndReadTest.awaitDispatched(store, "Other", 0, 75);
            AppendAndReadTest.awaitDispatched(store, "Idx", 0, 75);

            List<FoundMessage> byKey = store.queryMessage("Idx", "key-42", 10, 0, Long.MAX_VALUE);
            assertEquals(1, byKey.size());
            assertEquals("Idx/0/42/" + "x".repeat(42), TestStores.bodyText(byKey.get(0).record()));
            assertEquals(1, store.queryMessage("Idx", "uniq-100", 10, 0, Long.MAX_VALUE).size());
            assertEquals(0, store.queryMessage("Idx", "key-43", 10, 0, Long.MAX_VALUE).size(), "key-43 is Other's");

            List<FoundMessage> shared = store.queryMessage("Idx", "shared", 5, 0, Long.MAX_VALUE);
            assertEquals(List.of(148L, 146L, 144L, 142L, 140L), shared.stream()
                    .map(found -> (long) Integer.parseInt(TestStores.bodyText(found.record()).split("/")[2]))
                    .toList(), "newest first, capped at maxNum");
            List<FoundMessage> window = store.queryMessage("Idx", "shared", 100, T0 + 10_000, T0 + 20_000);
            assertEquals(6, window.size(), "messages 10, 12, ..., 20 were stored in the window");
            List<FoundMessage> tagged = store.queryMessage("Idx", "T#three", 100, 0, Long.MAX_VALUE);
            assertEquals(25, tagged.size(), "even multiples of 3 below 150");
            assertTrue(dir.resolve("index").toFile().list().length > 1, "index files rolled");
        }
    }

    @Test
    void indexSurvivesReopen(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            for (int i = 0; i < 20; i++) {
                store.append(TestStores.message("Idx", 0, i, "t"));
            }
        }
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertEquals(1, store.queryMessage("Idx", "key-7", 10, 0, Long.MAX_VALUE).size());
            store.append(TestStores.message("Idx", 0, 20, "t"));
        }
    }
}
