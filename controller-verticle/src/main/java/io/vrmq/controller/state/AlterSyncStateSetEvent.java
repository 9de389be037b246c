package io.vrmq.controller.state;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The master changed its SyncStateSet (CONTROLLER_ALTER_SYNC_STATE_SET). Applies only if master, master epoch and set
 * epoch are still the ones the leader checked.
 */
public record AlterSyncStateSetEvent(String brokerName, long masterBrokerId, int masterEpoch, int syncStateSetEpoch,
                                     SortedSet<Long> newSyncStateSet) implements ControllerEvent {
    public AlterSyncStateSetEvent {
        Objects.requireNonNull(brokerName, "brokerName");
        newSyncStateSet = Collections.unmodifiableSortedSet(new TreeSet<>(newSyncStateSet));
    }

    @Override
    public ControllerState.Applied applyTo(ControllerState state) {
        if (!state.contains(brokerName)) {
            return state.rejected("broker set " + brokerName + " is not registered");
        }
        SyncStateInfo syncState = state.syncState(brokerName);
        if (!Objects.equals(syncState.masterBrokerId(), masterBrokerId) || syncState.masterEpoch() != masterEpoch
            || syncState.syncStateSetEpoch() != syncStateSetEpoch) {
            return state.rejected("broker set " + brokerName + " moved on: master " + syncState.masterBrokerId()
                + " epoch " + syncState.masterEpoch() + " set epoch " + syncState.syncStateSetEpoch()
                + ", the change was based on master " + masterBrokerId + " epoch " + masterEpoch + " set epoch "
                + syncStateSetEpoch);
        }
        return state.with(brokerName, state.replicaInfo(brokerName), syncState.withSyncStateSet(newSyncStateSet))
            .accepted();
    }
}
