package io.vrmq.controller.state;

import java.util.Objects;

/** A registered replica now lives at another address (CONTROLLER_REGISTER_BROKER from a moved broker). */
public record UpdateBrokerAddressEvent(String clusterName, String brokerName, long brokerId, String brokerAddress)
    implements ControllerEvent {
    public UpdateBrokerAddressEvent {
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(brokerAddress, "brokerAddress");
    }

    @Override
    public ControllerState.Applied applyTo(ControllerState state) {
        BrokerReplicaInfo info = state.replicaInfo(brokerName);
        if (info == null || !info.hasReplica(brokerId)) {
            return state.rejected("id " + brokerId + " of broker set " + brokerName + " is not registered");
        }
        return state.with(brokerName, info.withAddress(brokerId, brokerAddress), state.syncState(brokerName))
            .accepted();
    }
}
