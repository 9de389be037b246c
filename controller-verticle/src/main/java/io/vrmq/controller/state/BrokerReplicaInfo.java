package io.vrmq.controller.state;

import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The replicas of one broker set (key: brokerName), RocketMQ's {@code BrokerReplicaInfo}: controller id to replica,
 * and the id the next GET_NEXT_BROKER_ID answers. Controller ids start at {@link #FIRST_BROKER_CONTROLLER_ID}.
 * Immutable: every change returns a new value, so readers on any thread see a consistent set.
 *
 * @param nextAssignBrokerId moves up by one on every replica added, whatever id was applied (as RocketMQ does)
 */
public record BrokerReplicaInfo(String clusterName, String brokerName, long nextAssignBrokerId,
                                SortedMap<Long, ReplicaRecord> replicas) {
    public static final long FIRST_BROKER_CONTROLLER_ID = 1;

    public BrokerReplicaInfo {
        Objects.requireNonNull(brokerName, "brokerName");
        replicas = replicas == null ? Collections.emptySortedMap()
            : Collections.unmodifiableSortedMap(new TreeMap<>(replicas));
    }

    public static BrokerReplicaInfo create(String clusterName, String brokerName) {
        return new BrokerReplicaInfo(clusterName, brokerName, FIRST_BROKER_CONTROLLER_ID, null);
    }

    public boolean hasReplica(Long brokerId) {
        return brokerId != null && replicas.containsKey(brokerId);
    }

    /** The replica's address, or null for an unknown or null id. */
    public String addressOf(Long brokerId) {
        ReplicaRecord replica = brokerId == null ? null : replicas.get(brokerId);
        return replica == null ? null : replica.address();
    }

    /** Controller id to address, sorted by id. */
    public SortedMap<Long, String> addresses() {
        SortedMap<Long, String> addresses = new TreeMap<>();
        replicas.forEach((id, replica) -> addresses.put(id, replica.address()));
        return addresses;
    }

    public BrokerReplicaInfo withReplica(long brokerId, ReplicaRecord replica) {
        TreeMap<Long, ReplicaRecord> changed = new TreeMap<>(replicas);
        changed.put(brokerId, replica);
        return new BrokerReplicaInfo(clusterName, brokerName, nextAssignBrokerId + 1, changed);
    }

    public BrokerReplicaInfo withAddress(long brokerId, String address) {
        ReplicaRecord replica = replicas.get(brokerId);
        if (replica == null) {
            return this;
        }
        TreeMap<Long, ReplicaRecord> changed = new TreeMap<>(replicas);
        changed.put(brokerId, replica.withAddress(address));
        return new BrokerReplicaInfo(clusterName, brokerName, nextAssignBrokerId, changed);
    }

    public BrokerReplicaInfo withoutReplicas(Set<Long> brokerIds) {
        TreeMap<Long, ReplicaRecord> changed = new TreeMap<>(replicas);
        changed.keySet().removeAll(brokerIds);
        return new BrokerReplicaInfo(clusterName, brokerName, nextAssignBrokerId, changed);
    }
}
