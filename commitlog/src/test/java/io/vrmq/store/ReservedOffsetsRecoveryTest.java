package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vrmq.store.queue.ReservedOffsetsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How recovery honours the reserved bounds, in-process: the bounds file of a running store is kept aside, the store
 * closed and the file and the abort marker put back - the state of a machine crash that happened to lose nothing
 * (a lost tail is {@link MachineCrashTest}'s part). Queues then continue at the bound, never below it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReservedOffsetsRecoveryTest {
    private static final String TOPIC = "Bounds";
    private static final int COUNT = 100;

    @Test
    void afterACrashAQueueContinuesAtItsBoundWithTheGapBlankAndACleanCloseForgetsTheBounds(@TempDir Path dir)
            throws Exception {
        long bound = crashWithBounds(dir);
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertFalse(store.recoveryReport().cleanShutdown());
            assertEquals(bound, store.getMaxOffsetInQueue(TOPIC, 0), "the gap is blank at once");
            GetMessageResult inGap = store.getMessages(TOPIC, 0, COUNT, 8, 1 << 20, TagFilter.ALL);
            assertTrue(inGap.messages().isEmpty());
            assertEquals(bound, inGap.nextBeginOffset(), "a reader crosses the blanks");
            assertEquals(bound, store.append(TestStores.message(TOPIC, 0, COUNT, "t")).queueOffset());
        }
        Files.write(dir.resolve("abort"), new byte[0]);   // a crash right after a clean close
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertEquals(bound + 1, store.append(TestStores.message(TOPIC, 0, COUNT + 1, "t")).queueOffset(),
                    "the clean close had every offset forced: no bound, no gap");
        }
    }

    @Test
    void underTheConfirmOffsetGateTheCountersJumpWithoutBlanksAndATruncationForgetsTheBounds(@TempDir Path dir)
            throws Exception {
        long bound = crashWithBounds(dir);
        StoreOptions gated = StoreOptions.defaults().withDispatchGatedByConfirmOffset(true);
        try (MessageStore store = MessageStore.open(TestStores.config(dir), gated)) {
            assertEquals(COUNT, store.getMaxOffsetInQueue(TOPIC, 0), "no blanks over records the gate holds back");
            store.switchToOwnAppends();
            store.setConfirmOffset(Long.MAX_VALUE);
            AppendResult next = store.append(TestStores.message(TOPIC, 0, COUNT, "t"));
            assertEquals(bound, next.queueOffset(), "the switch kept the crash's bound");
            store.truncateTo(next.commitLogOffset());
            assertTrue(ReservedOffsetsFile.read(dir.resolve(ReservedOffsetsFile.FILE_NAME)).bounds().isEmpty(),
                    "a crash after the truncation does not skip the new master's offsets");
            store.switchToOwnAppends();
            assertEquals(COUNT, store.append(TestStores.message(TOPIC, 0, COUNT, "t")).queueOffset(),
                    "after a truncation the offsets above the kept records are free again");
        }
    }

    /** The broker declares its topics after the open: a recovered counter and the crash's bound stay as they were. */
    @Test
    void declaringTheQueuesAfterACrashNeverLowersARecoveredCounter(@TempDir Path dir) throws Exception {
        long bound = crashWithBounds(dir);
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            int declared = store.declareQueues(Map.of(TOPIC, 8));
            assertEquals(bound, store.append(TestStores.message(TOPIC, 0, COUNT, "t")).queueOffset());
            assertEquals(0, store.append(TestStores.message(TOPIC, 1, 0, "t")).queueOffset());
            assertEquals(7, declared, "queues 1 to 7 are new, queue 0 is known");
        }
    }

    @Test
    void declaringTheQueuesAfterACleanRestartKeepsTheirOffsetsAndStopsAtTheLimit(@TempDir Path dir) {
        StoreConfig config = TestStores.config(dir).with("reservedOffsetSeedMaxQueues", 5);
        try (MessageStore store = MessageStore.open(config)) {
            for (int i = 0; i < COUNT; i++) {
                store.append(TestStores.message(TOPIC, 0, i, "t"));
            }
        }
        try (MessageStore store = MessageStore.open(config)) {
            assertEquals(4, store.declareQueues(Map.of(TOPIC, 8)), "5 known queues at most, queue 0 among them");
            assertEquals(0, store.declareQueues(Map.of("Other", 8)));
            assertEquals(COUNT, store.append(TestStores.message(TOPIC, 0, COUNT, "t")).queueOffset());
            assertEquals(0, store.append(TestStores.message(TOPIC, 7, 0, "t")).queueOffset(), "beyond the limit");
        }
    }

    /** Appends {@code COUNT} messages, then leaves the store as a crash would, bounds kept; returns queue 0's. */
    private static long crashWithBounds(Path dir) throws Exception {
        Path bounds = dir.resolve(ReservedOffsetsFile.FILE_NAME);
        Path aside = dir.resolveSibling(dir.getFileName() + "-bounds");
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            for (int i = 0; i < COUNT; i++) {
                assertEquals(AppendStatus.PUT_OK, store.append(TestStores.message(TOPIC, 0, i, "t")).status());
            }
            Files.copy(bounds, aside, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(aside, bounds, StandardCopyOption.REPLACE_EXISTING);
        Files.write(dir.resolve("abort"), new byte[0]);
        long bound = ReservedOffsetsFile.read(bounds).bounds().get(TOPIC).get(0);
        assertTrue(bound > COUNT, "the test needs a bound above the offsets handed out: " + bound);
        return bound;
    }
}
