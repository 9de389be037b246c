package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vrmq.store.checkpoint.Checkpoint;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RocketMQ's ConsumeQueue flush rule (flushConsumeQueueLeastPages, flushConsumeQueueThoroughIntervalMs): a round
 * forces only queues with enough unforced pages, and a queue it leaves out keeps the checkpoint's dispatched offset
 * at or below its oldest unforced entry, so recovery after a machine crash re-dispatches what that queue could lose.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConsumeQueueFlushPolicyTest {
    /** More than flushConsumeQueueLeastPages (2) pages of 20-byte entries in the busy queue. */
    private static final int BUSY_MESSAGES = 500;

    @Test
    void aQueueLeftUnforcedHoldsTheCheckpointBelowItsOldestUnforcedEntry(@TempDir Path dir) throws Exception {
        StoreConfig config = TestStores.config(dir).with("flushIntervalConsumeQueueMs", 20);
        try (MessageStore store = MessageStore.open(config)) {
            long quiet = appendQuietThenBusy(store);
            Checkpoint checkpoint = awaitCheckpointPastTheCommitLogEnd(dir, store);

            assertTrue(checkpoint.dispatchedFlushedOffset() <= quiet, "dispatched offset "
                    + checkpoint.dispatchedFlushedOffset() + " must stay at or below the quiet queue's unforced entry"
                    + " at " + quiet);
        }
    }

    @Test
    void withLeastPagesZeroEveryRoundForcesEveryQueueAndTheCheckpointFollowsTheDispatcher(@TempDir Path dir)
            throws Exception {
        StoreConfig config = TestStores.config(dir).with("flushIntervalConsumeQueueMs", 20)
                .with("flushConsumeQueueLeastPages", 0);
        try (MessageStore store = MessageStore.open(config)) {
            appendQuietThenBusy(store);
            long end = store.getCommitLogMaxOffset();

            Checkpoint checkpoint = awaitCheckpoint(dir, written -> written.dispatchedFlushedOffset() == end);

            assertEquals(end, checkpoint.dispatchedFlushedOffset());
        }
    }

    /** One message to a quiet queue, then enough to a busy one to be forced; the quiet message's offset. */
    private static long appendQuietThenBusy(MessageStore store) {
        long quiet = store.append(TestStores.message("Quiet", 0, 0, "t")).commitLogOffset();
        for (int i = 0; i < BUSY_MESSAGES; i++) {
            assertTrue(store.append(TestStores.message("Busy", 0, i, "t")).isOk());
        }
        return quiet;
    }

    /** A checkpoint written after the flusher forced the whole CommitLog and the dispatcher caught up. */
    private static Checkpoint awaitCheckpointPastTheCommitLogEnd(Path dir, MessageStore store) throws Exception {
        long end = store.getCommitLogMaxOffset();
        awaitCheckpoint(dir, written -> written.commitLogFlushedOffset() >= end && store.dispatchedOffset() >= end);
        return awaitCheckpoint(dir, written -> written.commitLogFlushedOffset() >= end);   // one more round after it
    }

    private static Checkpoint awaitCheckpoint(Path dir, java.util.function.Predicate<Checkpoint> condition)
            throws InterruptedException {
        while (true) {
            Checkpoint checkpoint = Checkpoint.open(dir.resolve("checkpoint"));
            if (condition.test(checkpoint)) {
                return checkpoint;
            }
            Thread.sleep(20);
        }
    }
}
