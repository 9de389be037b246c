package io.vrmq.controller.state;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the controller replicates: per broker set (key brokerName) its replicas and its sync state, as
 * RocketMQ's two tables {@code replicaInfoTable} and {@code syncStateSetInfoTable}. A set "exists" only when it is in
 * both (RocketMQ's {@code isContainsBroker}); a clean-up can leave it in one.
 *
 * <p>Immutable: {@link #apply} returns the next state, so the state machine swaps one reference per log entry and any
 * thread reads a consistent state. Applying the same events in the same order gives the same state on every node.
 */
public record ControllerState(SortedMap<String, BrokerReplicaInfo> replicaInfos,
                              SortedMap<String, SyncStateInfo> syncStates) {
    public static final ControllerState EMPTY = new ControllerState(null, null);

    public ControllerState {
        replicaInfos = replicaInfos == null ? Collections.emptySortedMap()
            : Collections.unmodifiableSortedMap(new TreeMap<>(replicaInfos));
        syncStates = syncStates == null ? Collections.emptySortedMap()
            : Collections.unmodifiableSortedMap(new TreeMap<>(syncStates));
    }

    /** The set is known in both tables. */
    public boolean contains(String brokerName) {
        return brokerName != null && replicaInfos.containsKey(brokerName) && syncStates.containsKey(brokerName);
    }

    /** The set's replicas, or null. */
    public BrokerReplicaInfo replicaInfo(String brokerName) {
        return brokerName == null ? null : replicaInfos.get(brokerName);
    }

    /** The set's sync state, or null. */
    public SyncStateInfo syncState(String brokerName) {
        return brokerName == null ? null : syncStates.get(brokerName);
    }

    /** The outcome of applying {@code event}: the next state, or this one with the reason the event was stale. */
    public Applied apply(ControllerEvent event) {
        return event.applyTo(this);
    }

    ControllerState with(String brokerName, BrokerReplicaInfo replicaInfo, SyncStateInfo syncState) {
        TreeMap<String, BrokerReplicaInfo> infos = new TreeMap<>(replicaInfos);
        TreeMap<String, SyncStateInfo> states = new TreeMap<>(syncStates);
        if (replicaInfo == null) {
            infos.remove(brokerName);
        } else {
            infos.put(brokerName, replicaInfo);
        }
        if (syncState == null) {
            states.remove(brokerName);
        } else {
            states.put(brokerName, syncState);
        }
        return new ControllerState(infos, states);
    }

    Applied accepted() {
        return new Applied(this, null);
    }

    Applied rejected(String reason) {
        return new Applied(this, reason);
    }

    /**
     * The result of applying one event.
     *
     * @param rejection null when the event applied; else why it no longer fits the state (it was decided against an
     *                  older state, e.g. by a leader that has since lost its place) and changed nothing
     */
    public record Applied(ControllerState state, String rejection) {
        public boolean isAccepted() {
            return rejection == null;
        }
    }
}
