package io.vrmq.controller.state;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An admin removed replicas from the controller (CLEAN_BROKER_DATA): the listed ids, or with none listed the whole
 * set; a set left without replicas (or without a SyncStateSet) is dropped from that table, as RocketMQ does.
 * Idempotent, so it carries no condition.
 */
public record CleanBrokerDataEvent(String brokerName, SortedSet<Long> brokerIds) implements ControllerEvent {
    public CleanBrokerDataEvent {
        Objects.requireNonNull(brokerName, "brokerName");
        brokerIds = brokerIds == null ? Collections.emptySortedSet()
            : Collections.unmodifiableSortedSet(new TreeSet<>(brokerIds));
    }

    @Override
    public ControllerState.Applied applyTo(ControllerState state) {
        if (brokerIds.isEmpty()) {
            return state.with(brokerName, null, null).accepted();
        }
        if (!state.contains(brokerName)) {
            return state.accepted();
        }
        BrokerReplicaInfo info = state.replicaInfo(brokerName).withoutReplicas(brokerIds);
        SyncStateInfo syncState = state.syncState(brokerName).withoutReplicas(brokerIds);
        return state.with(brokerName, info.replicas().isEmpty() ? null : info,
            syncState.syncStateSet().isEmpty() ? null : syncState).accepted();
    }
}
