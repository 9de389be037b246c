package io.vrmq.controller.state;

import java.util.Objects;

/**
 * A broker took controller id {@code brokerId} in its set (CONTROLLER_APPLY_BROKER_ID). The first id of an unknown
 * set must be 1 and creates the set with an empty sync state; a known id is accepted again only with the same check
 * code (a retry by the same broker), which changes nothing.
 */
public record ApplyBrokerIdEvent(String clusterName, String brokerName, long brokerId, String brokerAddress,
                                 String registerCheckCode) implements ControllerEvent {
    public ApplyBrokerIdEvent {
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(brokerAddress, "brokerAddress");
        Objects.requireNonNull(registerCheckCode, "registerCheckCode");
    }

    @Override
    public ControllerState.Applied applyTo(ControllerState state) {
        BrokerReplicaInfo info = state.replicaInfo(brokerName);
        ReplicaRecord replica = new ReplicaRecord(brokerAddress, registerCheckCode);
        if (info == null) {
            if (brokerId != BrokerReplicaInfo.FIRST_BROKER_CONTROLLER_ID) {
                return state.rejected("broker set " + brokerName + " is not registered, so its first id must be "
                    + BrokerReplicaInfo.FIRST_BROKER_CONTROLLER_ID + ", not " + brokerId);
            }
            return state.with(brokerName, BrokerReplicaInfo.create(clusterName, brokerName).withReplica(brokerId,
                replica), SyncStateInfo.create(clusterName, brokerName)).accepted();
        }
        ReplicaRecord existing = info.replicas().get(brokerId);
        if (existing != null && !existing.registerCheckCode().equals(registerCheckCode)) {
            return state.rejected("id " + brokerId + " of broker set " + brokerName + " belongs to another broker");
        }
        BrokerReplicaInfo changed = existing == null ? info.withReplica(brokerId, replica) : info;
        // A set whose sync state a clean-up removed gets a fresh one (RocketMQ would also drop the other replicas).
        SyncStateInfo syncState = state.syncState(brokerName);
        return state.with(brokerName, changed, syncState == null ? SyncStateInfo.create(info.clusterName(),
            brokerName) : syncState).accepted();
    }
}
