package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dispatch rounds behind the writer ({@link MessageStore#setDispatchBehindWriter}): the writer thread writes the
 * ConsumeQueue entries of its appends itself while the dispatcher thread is parked, and nothing it leaves undone is
 * lost: the dispatcher thread takes the rest of a long round, and appends nobody dispatches behind.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DispatchBehindWriterTest {
    private static final String TOPIC = "Behind";
    private static final int APPENDS = 50;

    @Test
    void theWritersOwnThreadRunsTheRoundsOfItsAppends(@TempDir Path dir) throws Exception {
        List<String> threads = appendAndRecordRoundThreads(dir, true);
        long onThisThread = threads.stream().filter(Thread.currentThread().getName()::equals).count();
        // The dispatcher thread takes a round only when its idle wake-up (every 10 ms) falls inside one.
        assertTrue(onThisThread > APPENDS / 2, "rounds on the appending thread: " + onThisThread + " of " + APPENDS);
    }

    @Test
    void withoutItEveryRoundRunsOnTheDispatcherThread(@TempDir Path dir) throws Exception {
        List<String> threads = appendAndRecordRoundThreads(dir, false);
        assertTrue(threads.stream().noneMatch(Thread.currentThread().getName()::equals), threads.toString());
    }

    @Test
    void appendsNobodyDispatchesBehindAreDispatchedByTheDispatcherThread(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            store.setDispatchBehindWriter(true);
            for (int i = 0; i < 3; i++) {
                store.append(TestStores.message(TOPIC, 0, i, "t"));
            }
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 3);
        }
    }

    @Test
    void aRoundLongerThanTheBoundIsFinishedByTheDispatcherThreadInOrder(@TempDir Path dir) throws Exception {
        int count = 600;   // more than two rounds' bound of 256
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            store.setDispatchBehindWriter(true);
            List<Long> heard = new ArrayList<>();
            store.setDispatchListener((topic, queueId, newMax, tagsCode, storeTimestamp) -> {
                synchronized (heard) {
                    heard.add(newMax);
                }
            });
            for (int i = 0; i < count; i++) {
                store.append(TestStores.message(TOPIC, 0, i, "t"));
            }
            store.dispatchBehindWriter();
            awaitHeard(heard, count);
            synchronized (heard) {
                for (int i = 0; i < count; i++) {
                    assertEquals(i + 1, heard.get(i), "entry " + i);
                }
            }
            assertEquals(count, store.getMaxOffsetInQueue(TOPIC, 0));
        }
    }

    @Test
    void aRoundBehindTheWriterKeepsToTheConfirmOffsetGate(@TempDir Path dir) throws Exception {
        StoreOptions gated = StoreOptions.defaults().withDispatchGatedByConfirmOffset(true);
        try (MessageStore store = MessageStore.open(TestStores.config(dir), gated)) {
            store.setDispatchBehindWriter(true);
            AppendResult first = store.append(TestStores.message(TOPIC, 0, 0, "t"));
            store.append(TestStores.message(TOPIC, 0, 1, "t"));
            store.setConfirmOffset(first.commitLogOffset() + first.sizeBytes());
            store.dispatchBehindWriter();
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 1);
            store.append(TestStores.message(TOPIC, 0, 2, "t"));
            store.dispatchBehindWriter();
            assertEquals(first.commitLogOffset() + first.sizeBytes(), store.dispatchedOffset(),
                    "nothing past the confirm offset");
            assertEquals(1, store.getMaxOffsetInQueue(TOPIC, 0));
            store.setConfirmOffset(store.getCommitLogMaxOffset());
            AppendAndReadTest.awaitDispatched(store, TOPIC, 0, 3);
        }
    }

    /** Appends one at a time, each followed by a round behind it (when on); the threads the rounds were heard on. */
    private static List<String> appendAndRecordRoundThreads(Path dir, boolean behindWriter) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            store.setDispatchBehindWriter(behindWriter);
            List<Long> heard = new ArrayList<>();
            List<String> threads = new ArrayList<>();
            store.setDispatchListener((topic, queueId, newMax, tagsCode, storeTimestamp) -> {
                synchronized (heard) {
                    heard.add(newMax);
                    threads.add(Thread.currentThread().getName());
                }
            });
            for (int i = 0; i < APPENDS; i++) {
                store.append(TestStores.message(TOPIC, 0, i, "t"));
                store.dispatchBehindWriter();   // nothing to do when off
                awaitHeard(heard, i + 1);
            }
            synchronized (heard) {
                for (int i = 0; i < APPENDS; i++) {
                    assertEquals(i + 1, heard.get(i), "entry " + i);
                }
                return new ArrayList<>(threads);
            }
        }
    }

    private static void awaitHeard(List<Long> heard, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            synchronized (heard) {
                if (heard.size() >= count) {
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, "dispatch did not reach " + count);
            Thread.sleep(1);
        }
    }
}
