package io.vrmq.remoting.body.controller;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * RocketMQ's {@code SyncStateSet} body: the controller ids of the replicas in sync with the master, and the epoch of
 * that set. Sent by a master proposing a change (1001, with the epoch it was based on), answered by the controller
 * (1001, 1003, 1004) and pushed with a role change (1008). {@code {"syncStateSet":[1,2],"syncStateSetEpoch":2}}.
 */
public record SyncStateSetBody(Set<Long> syncStateSet, int syncStateSetEpoch) {
    public SyncStateSetBody {
        syncStateSet = syncStateSet == null ? Collections.emptySortedSet()
            : Collections.unmodifiableSortedSet(new TreeSet<>(syncStateSet));
    }
}
