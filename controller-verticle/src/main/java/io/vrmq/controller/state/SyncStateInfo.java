package io.vrmq.controller.state;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Who is master of one broker set and which replicas are in sync with it, RocketMQ's {@code SyncStateInfo}.
 * Immutable: every change returns a new value.
 *
 * @param masterBrokerId    controller id of the master, or null while the set has none
 * @param masterEpoch       +1 on every master change, including "master lost"; 0 means no election ever happened
 * @param syncStateSet      controller ids of the replicas in sync with the master
 * @param syncStateSetEpoch +1 on every change of the set (an election sets it to {newMaster})
 */
public record SyncStateInfo(String clusterName, String brokerName, Long masterBrokerId, int masterEpoch,
                            SortedSet<Long> syncStateSet, int syncStateSetEpoch) {
    public SyncStateInfo {
        Objects.requireNonNull(brokerName, "brokerName");
        syncStateSet = syncStateSet == null ? Collections.emptySortedSet()
            : Collections.unmodifiableSortedSet(new TreeSet<>(syncStateSet));
    }

    public static SyncStateInfo create(String clusterName, String brokerName) {
        return new SyncStateInfo(clusterName, brokerName, null, 0, null, 0);
    }

    /** No master was ever elected for this set: the first election takes the requester. */
    @JsonIgnore
    public boolean isFirstTimeForElect() {
        return masterEpoch == 0;
    }

    @JsonIgnore
    public boolean hasMaster() {
        return masterBrokerId != null;
    }

    public SyncStateInfo withSyncStateSet(Set<Long> newSet) {
        return new SyncStateInfo(clusterName, brokerName, masterBrokerId, masterEpoch, new TreeSet<>(newSet),
            syncStateSetEpoch + 1);
    }

    public SyncStateInfo withMaster(Long newMasterBrokerId) {
        return new SyncStateInfo(clusterName, brokerName, newMasterBrokerId, masterEpoch + 1, syncStateSet,
            syncStateSetEpoch);
    }

    /** Drops ids from the set without a new epoch, as RocketMQ's clean-up does. */
    public SyncStateInfo withoutReplicas(Set<Long> brokerIds) {
        TreeSet<Long> changed = new TreeSet<>(syncStateSet);
        changed.removeAll(brokerIds);
        return new SyncStateInfo(clusterName, brokerName, masterBrokerId, masterEpoch, changed, syncStateSetEpoch);
    }
}
