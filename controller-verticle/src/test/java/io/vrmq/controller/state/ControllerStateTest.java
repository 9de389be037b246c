package io.vrmq.controller.state;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Applying events: what each changes, and the stale ones that must change nothing. */
class ControllerStateTest {
    private static final String SET = "b1";

    private static ControllerState.Applied apply(ControllerState state, ControllerEvent event) {
        return state.apply(event);
    }

    private static ControllerState accepted(ControllerState state, ControllerEvent event) {
        ControllerState.Applied applied = state.apply(event);
        assertTrue(applied.isAccepted(), applied.rejection());
        return applied.state();
    }

    private static ApplyBrokerIdEvent applyId(long id, String checkCode) {
        return new ApplyBrokerIdEvent("c1", SET, id, "127.0.0.1:" + id, checkCode);
    }

    /** Replicas 1 and 2, master 1, SyncStateSet {1, 2}: master epoch 1, set epoch 2. */
    private static ControllerState twoReplicasInSync() {
        ControllerState state = accepted(ControllerState.EMPTY, applyId(1, "a;1"));
        state = accepted(state, applyId(2, "b;2"));
        state = accepted(state, new ElectMasterEvent(SET, 1L, 0, 0));
        return accepted(state, new AlterSyncStateSetEvent(SET, 1, 1, 1, new TreeSet<>(Set.of(1L, 2L))));
    }

    @Test
    void applyingIdsCreatesTheSetAndCountsNextIds() {
        ControllerState state = twoReplicasInSync();
        assertTrue(state.contains(SET));
        assertEquals(3, state.replicaInfo(SET).nextAssignBrokerId());
        assertEquals("127.0.0.1:2", state.replicaInfo(SET).addressOf(2L));
        SyncStateInfo syncState = state.syncState(SET);
        assertEquals(1L, syncState.masterBrokerId());
        assertEquals(1, syncState.masterEpoch());
        assertEquals(Set.of(1L, 2L), syncState.syncStateSet());
        assertEquals(2, syncState.syncStateSetEpoch());
    }

    @Test
    void anApplyRetriedWithTheSameCheckCodeChangesNothingAndAnotherCodeIsRejected() {
        ControllerState state = twoReplicasInSync();
        ControllerState.Applied retry = apply(state, applyId(2, "b;2"));
        assertTrue(retry.isAccepted());
        assertEquals(state, retry.state());
        ControllerState.Applied conflict = apply(state, applyId(2, "x;9"));
        assertFalse(conflict.isAccepted());
        assertSame(state, conflict.state());
        assertFalse(apply(ControllerState.EMPTY, applyId(2, "b;2")).isAccepted(), "first id must be 1");
    }

    @Test
    void staleSyncStateAndElectionEventsAreRejected() {
        ControllerState state = twoReplicasInSync();
        List<ControllerEvent> stale = List.of(
            new AlterSyncStateSetEvent(SET, 1, 1, 1, new TreeSet<>(Set.of(1L))),
            new AlterSyncStateSetEvent(SET, 1, 0, 2, new TreeSet<>(Set.of(1L))),
            new AlterSyncStateSetEvent(SET, 2, 1, 2, new TreeSet<>(Set.of(2L))),
            new ElectMasterEvent(SET, 2L, 0, 0),
            new ElectMasterEvent(SET, 2L, 1, 1),
            new ElectMasterEvent("unknown", 2L, 1, 2),
            new UpdateBrokerAddressEvent("c1", SET, 9, "x:1"));
        for (ControllerEvent event : stale) {
            ControllerState.Applied applied = apply(state, event);
            assertFalse(applied.isAccepted(), event.toString());
            assertSame(state, applied.state());
        }
    }

    @Test
    void anElectionResetsTheSetAndMasterLostKeepsIt() {
        ControllerState state = twoReplicasInSync();
        ControllerState elected = accepted(state, new ElectMasterEvent(SET, 2L, 1, 2));
        assertEquals(2L, elected.syncState(SET).masterBrokerId());
        assertEquals(2, elected.syncState(SET).masterEpoch());
        assertEquals(Set.of(2L), elected.syncState(SET).syncStateSet());
        assertEquals(3, elected.syncState(SET).syncStateSetEpoch());
        ControllerState lost = accepted(state, new ElectMasterEvent(SET, null, 1, 2));
        assertNull(lost.syncState(SET).masterBrokerId());
        assertEquals(2, lost.syncState(SET).masterEpoch());
        assertEquals(Set.of(1L, 2L), lost.syncState(SET).syncStateSet());
        assertEquals(2, lost.syncState(SET).syncStateSetEpoch());
    }

    @Test
    void cleaningRemovesIdsAndDropsEmptiedTables() {
        ControllerState state = twoReplicasInSync();
        ControllerState without2 = accepted(state, new CleanBrokerDataEvent(SET, new TreeSet<>(Set.of(2L))));
        assertEquals(Set.of(1L), without2.replicaInfo(SET).replicas().keySet());
        assertEquals(Set.of(1L), without2.syncState(SET).syncStateSet());
        assertEquals(2, without2.syncState(SET).syncStateSetEpoch(), "a clean-up does not bump the epoch");
        ControllerState none = accepted(without2, new CleanBrokerDataEvent(SET, new TreeSet<>(Set.of(1L))));
        assertFalse(none.contains(SET));
        assertEquals(ControllerState.EMPTY, accepted(state, new CleanBrokerDataEvent(SET, null)));
    }

    @Test
    void anAddressUpdateKeepsTheCheckCode() {
        ControllerState moved = accepted(twoReplicasInSync(), new UpdateBrokerAddressEvent("c1", SET, 2, "10.0.0.2:1"));
        assertEquals(new ReplicaRecord("10.0.0.2:1", "b;2"), moved.replicaInfo(SET).replicas().get(2L));
    }
}
