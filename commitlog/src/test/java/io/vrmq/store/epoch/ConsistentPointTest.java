package io.vrmq.store.epoch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The consistent point on the cases RocketMQ's findConsistentPoint distinguishes. */
class ConsistentPointTest {
    private static List<EpochEntry> epochs(long... epochAndStart) {
        java.util.ArrayList<EpochEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < epochAndStart.length; i += 2) {
            long end = i + 2 < epochAndStart.length ? epochAndStart[i + 3] : EpochEntry.OPEN_END_OFFSET;
            entries.add(new EpochEntry((int) epochAndStart[i], epochAndStart[i + 1], end));
        }
        return entries;
    }

    @Test
    void identicalHistoriesAgreeUpToTheShorterLog() {
        List<EpochEntry> same = epochs(1, 0, 2, 100);
        assertEquals(300, ConsistentPoint.find(same, 300, same, 300));
        assertEquals(250, ConsistentPoint.find(same, 250, same, 300), "replica behind in the same epoch");
    }

    @Test
    void aReplicaBehindAnEpochKeepsItsWholeLog() {
        assertEquals(80, ConsistentPoint.find(epochs(1, 0), 80, epochs(1, 0, 2, 100), 400));
        assertEquals(100, ConsistentPoint.find(epochs(1, 0), 150, epochs(1, 0, 2, 100), 400),
            "but not what it wrote in epoch 1 past the point where epoch 2 began on the master");
    }

    @Test
    void aReplicaAheadWithAnEpochTheMasterNeverSawIsCutWhereTheMastersEpochEnds() {
        // The old master of epoch 2 wrote up to 500; the new master (epoch 3) had copied epoch 2 up to 420.
        List<EpochEntry> oldMaster = epochs(1, 0, 2, 100);
        List<EpochEntry> newMaster = epochs(1, 0, 2, 100, 3, 420);
        assertEquals(420, ConsistentPoint.find(oldMaster, 500, newMaster, 900));
        // An extra local epoch (4) the master never had is skipped; epoch 2 decides.
        assertEquals(420, ConsistentPoint.find(epochs(1, 0, 2, 100, 4, 500), 600, newMaster, 900));
    }

    @Test
    void anEpochWithAnotherStartOffsetIsNotCommon() {
        assertEquals(100, ConsistentPoint.find(epochs(1, 0, 2, 150), 300, epochs(1, 0, 2, 100), 300));
        assertEquals(ConsistentPoint.NONE, ConsistentPoint.find(epochs(2, 150), 300, epochs(1, 0, 2, 100), 300));
    }

    @Test
    void noCommonEpochOrNoEntriesGiveNone() {
        assertEquals(ConsistentPoint.NONE, ConsistentPoint.find(epochs(5, 0), 10, epochs(1, 0, 2, 100), 300));
        assertEquals(ConsistentPoint.NONE, ConsistentPoint.find(List.of(), 10, epochs(1, 0), 300));
        assertEquals(ConsistentPoint.NONE, ConsistentPoint.find(epochs(1, 0), 10, List.of(), 0));
    }

    /**
     * The old master wrote unreplicated records in epoch 1; the new master was elected before it wrote any and keeps
     * epoch 1 empty: the old master is cut back to the start, not left with its divergent bytes.
     */
    @Test
    void anOldMasterIsCutBackToAnEpochTheNewMasterLeftEmpty() {
        List<EpochEntry> oldMaster = List.of(EpochEntry.open(1, 0));
        List<EpochEntry> newMaster = List.of(new EpochEntry(1, 0, 0), EpochEntry.open(2, 0));

        assertEquals(0, ConsistentPoint.find(oldMaster, 4_000, newMaster, 9_000));
    }
}
