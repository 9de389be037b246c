package io.vrmq.controller.state;

import java.util.Objects;
import java.util.Set;

/**
 * The result of an election (CONTROLLER_ELECT_MASTER or a controller-triggered one): a new master, whose
 * SyncStateSet becomes {newMaster}; or, with {@code newMasterBrokerId} null, "the master is gone and nobody could be
 * elected", which clears the master and keeps the set. Either way the master epoch moves up. Applies only if both
 * epochs are still the ones the election was based on.
 */
public record ElectMasterEvent(String brokerName, Long newMasterBrokerId, int masterEpoch, int syncStateSetEpoch)
    implements ControllerEvent {
    public ElectMasterEvent {
        Objects.requireNonNull(brokerName, "brokerName");
    }

    @Override
    public ControllerState.Applied applyTo(ControllerState state) {
        if (!state.contains(brokerName)) {
            return state.rejected("broker set " + brokerName + " is not registered");
        }
        SyncStateInfo syncState = state.syncState(brokerName);
        if (syncState.masterEpoch() != masterEpoch || syncState.syncStateSetEpoch() != syncStateSetEpoch) {
            return state.rejected("broker set " + brokerName + " moved on: master epoch " + syncState.masterEpoch()
                + " set epoch " + syncState.syncStateSetEpoch() + ", the election was based on master epoch "
                + masterEpoch + " set epoch " + syncStateSetEpoch);
        }
        SyncStateInfo elected = newMasterBrokerId == null ? syncState.withMaster(null)
            : syncState.withMaster(newMasterBrokerId).withSyncStateSet(Set.of(newMasterBrokerId));
        return state.with(brokerName, state.replicaInfo(brokerName), elected).accepted();
    }
}
