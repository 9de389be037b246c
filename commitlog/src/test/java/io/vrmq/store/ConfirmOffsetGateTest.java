package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The confirm offset and its dispatch gate: consumers see only what every in-sync replica has. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConfirmOffsetGateTest {
    private static final String TOPIC = "Gate";
    private static final StoreOptions GATED = StoreOptions.defaults().withDispatchGatedByConfirmOffset(true);

    @Test
    void whileGatedConsumersSeeOnlyRecordsEndingAtOrBelowTheConfirmOffset(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir), GATED)) {
            assertTrue(store.isDispatchGatedByConfirmOffset());
            List<AppendResult> written = append(store, 10);
            awaitDispatchedTo(store, 0);
            assertEquals(0, store.getMaxOffsetInQueue(TOPIC, 0), "confirm offset 0: nothing visible");
            assertEquals(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE,
                    store.getMessages(TOPIC, 0, 0, 32, 1 << 20, TagFilter.ALL).status());

            store.setConfirmOffset(end(written.get(4)));
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 5);
            assertEquals(5, store.getMessages(TOPIC, 0, 0, 32, 1 << 20, TagFilter.ALL).messages().size());

            store.setConfirmOffset(written.get(7).commitLogOffset() + 10);   // inside record 7
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 7);
            awaitDispatchedTo(store, written.get(7).commitLogOffset());
            assertEquals(7, store.getMaxOffsetInQueue(TOPIC, 0), "record 7 crosses the confirm offset");
            assertTrue(store.damagedRanges().isEmpty(), "a confirm offset inside a record is not damage");

            store.setConfirmOffset(store.getCommitLogMaxOffset());
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 10);
            assertEquals(10, store.getMessages(TOPIC, 0, 0, 32, 1 << 20, TagFilter.ALL).messages().size());
        }
    }

    @Test
    void turningTheGateOffReleasesEverythingAndOnAgainHoldsNewRecords(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir), GATED)) {
            append(store, 3);
            store.setDispatchGatedByConfirmOffset(false);
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 3);

            long confirmed = store.getCommitLogMaxOffset();
            store.setConfirmOffset(confirmed);
            store.setDispatchGatedByConfirmOffset(true);
            append(store, 2);
            awaitDispatchedTo(store, confirmed);
            assertEquals(3, store.getMaxOffsetInQueue(TOPIC, 0));
            store.setConfirmOffset(store.getCommitLogMaxOffset());
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 5);
        }
    }

    @Test
    void theConfirmOffsetIsKeptInTheCheckpointAndClampedIntoTheLogAtOpen(@TempDir Path dir) throws Exception {
        long confirmed;
        long max;
        try (MessageStore store = MessageStore.open(TestStores.config(dir), GATED)) {
            List<AppendResult> written = append(store, 10);
            confirmed = end(written.get(5));
            store.setConfirmOffset(confirmed);
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 6);
            max = store.getCommitLogMaxOffset();
        }
        try (MessageStore store = MessageStore.open(TestStores.config(dir), GATED)) {
            assertEquals(confirmed, store.confirmOffset());
            assertEquals(6, store.getMaxOffsetInQueue(TOPIC, 0), "recovery builds queues only up to it");
            AppendResult next = store.append(TestStores.message(TOPIC, 0, 99, "t"));
            assertEquals(10, next.queueOffset(), "records held back keep their queue offsets");
            store.setConfirmOffset(store.getCommitLogMaxOffset() + 5_000);   // beyond the log
        }
        try (MessageStore store = MessageStore.open(TestStores.config(dir), GATED)) {
            assertTrue(store.confirmOffset() > max);
            assertEquals(store.getCommitLogMaxOffset(), store.confirmOffset(), "clamped to the max offset");
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 11);
        }
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertFalse(store.isDispatchGatedByConfirmOffset(), "classic stores open ungated");
        }
    }

    @Test
    void aTruncationBelowTheConfirmOffsetLowersIt(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir), GATED)) {
            List<AppendResult> written = append(store, 10);
            store.setConfirmOffset(store.getCommitLogMaxOffset());
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 10);
            store.truncateTo(written.get(4).commitLogOffset());
            assertEquals(written.get(4).commitLogOffset(), store.confirmOffset());
            assertEquals(4, store.getMaxOffsetInQueue(TOPIC, 0));
        }
    }

    private static List<AppendResult> append(MessageStore store, int count) {
        List<AppendResult> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            AppendResult result = store.append(TestStores.message(TOPIC, 0, i, "t"));
            assertEquals(AppendStatus.PUT_OK, result.status());
            written.add(result);
        }
        return written;
    }

    private static long end(AppendResult result) {
        return result.commitLogOffset() + result.sizeBytes();
    }

    /** Waits until the dispatcher has gone as far as the gate lets it (at least {@code offset}). */
    static void awaitDispatchedTo(MessageStore store, long offset) throws InterruptedException {
        await(store::dispatchedOffset, offset);
    }

    private static void await(LongSupplier value, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (value.getAsLong() < atLeast) {
            assertTrue(System.nanoTime() < deadline, "still at " + value.getAsLong() + ", waiting for " + atLeast);
            Thread.sleep(2);
        }
    }
}
