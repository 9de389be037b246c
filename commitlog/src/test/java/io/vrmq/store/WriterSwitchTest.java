package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vrmq.store.queue.ReservedOffsetsFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Controller mode switches one open store between replicated bytes and own appends when the role changes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WriterSwitchTest {
    @Test
    void aReplicaBecomesAMasterAndThenAReplicaAgain(@TempDir Path masterDir, @TempDir Path storeDir)
            throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore store = MessageStore.open(TestStores.config(storeDir))) {
            ReplicaFixture.fillMaster(master, 300);
            store.switchToReplica();
            assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE, store.append(ReplicaFixture.message("RepA", 0, 1, "t",
                    40)).status(), "a replica refuses own appends");
            ReplicaFixture.replicateAll(master, store, new Random(1));
            long replicated = store.getCommitLogMaxOffset();

            store.switchToOwnAppends();
            long queueEnd = master.getMaxOffsetInQueue("RepA", 0);
            AppendResult own = store.append(ReplicaFixture.message("RepA", 0, 500, "t", 40));
            assertEquals(AppendStatus.PUT_OK, own.status());
            assertEquals(replicated, own.commitLogOffset());
            assertEquals(queueEnd, own.queueOffset(), "queue offsets continue after the replicated ones");
            assertThrows(ReplicationException.class,
                    () -> store.appendReplicated(store.getCommitLogMaxOffset(), master.readCommitLog(0, 10)),
                    "a master refuses replicated bytes");

            // Demoted again: it follows the master from the point both agree on (its own append is cut).
            store.truncateTo(replicated);
            store.switchToReplica();
            ReplicaFixture.fillMaster(master, 50);
            ReplicaFixture.replicateAll(master, store, new Random(2));
            ReplicationTest.assertSameCommitLog(master, store);
            ReplicationTest.assertSameQueues(master, store);
        }
    }

    /** Queues declared while fenced are still known after the switch: the first append covers all of them. */
    @Test
    void queuesDeclaredBeforeASwitchToOwnAppendsShareItsFirstBoundWrite(@TempDir Path storeDir) {
        try (MessageStore store = MessageStore.open(TestStores.config(storeDir))) {
            assertEquals(8, store.declareQueues(Map.of("Declared", 8)));
            store.switchToReplica();
            store.switchToOwnAppends();
            assertEquals(0, store.append(ReplicaFixture.message("Declared", 3, 0, "t", 40)).queueOffset());
            Map<String, Map<Integer, Long>> bounds = ReservedOffsetsFile.read(storeDir.resolve(
                    ReservedOffsetsFile.FILE_NAME)).bounds();
            assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), bounds.get("Declared").keySet());
        }
    }

    @Test
    void recordsHeldBackByTheGateKeepTheirQueueOffsetsWhenTheReplicaBecomesMaster(@TempDir Path masterDir,
            @TempDir Path storeDir) throws Exception {
        try (MessageStore master = MessageStore.open(TestStores.config(masterDir));
             MessageStore store = MessageStore.open(TestStores.config(storeDir),
                     StoreOptions.defaults().withDispatchGatedByConfirmOffset(true))) {
            List<AppendResult> written = ReplicaFixture.fillMaster(master, 60);
            store.switchToReplica();
            ReplicaFixture.replicateAll(master, store, new Random(4));
            store.setConfirmOffset(written.get(30).commitLogOffset());
            ConfirmOffsetGateTest.awaitDispatchedTo(store, written.get(30).commitLogOffset());

            store.switchToOwnAppends();
            for (String topic : ReplicaFixture.TOPICS) {
                for (int queueId = 0; queueId < ReplicaFixture.QUEUES; queueId++) {
                    long masterEnd = master.getMaxOffsetInQueue(topic, queueId);
                    assertTrue(store.getMaxOffsetInQueue(topic, queueId) < masterEnd || masterEnd == 0);
                    AppendResult own = store.append(ReplicaFixture.message(topic, queueId, 900, "t", 40));
                    assertEquals(masterEnd, own.queueOffset(), topic + "-" + queueId);
                }
            }
        }
    }

    @Test
    void withoutAnExplicitSwitchTheFirstKindOfWriterStillLocksTheOtherOut(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertEquals(AppendStatus.PUT_OK, store.append(TestStores.message("T", 0, 1, "t")).status());
            assertThrows(ReplicationException.class,
                    () -> store.appendReplicated(store.getCommitLogMaxOffset(), java.nio.ByteBuffer.allocate(8)));
        }
    }
}
