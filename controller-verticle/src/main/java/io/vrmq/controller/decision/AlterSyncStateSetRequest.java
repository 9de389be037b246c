package io.vrmq.controller.decision;

import java.util.Set;

/**
 * CONTROLLER_ALTER_SYNC_STATE_SET (1001): the header's master and master epoch, the body's proposed set and the set
 * epoch it was based on.
 *
 * @param masterBrokerId null when the header omitted it (then the requester is not the master)
 */
public record AlterSyncStateSetRequest(String brokerName, Long masterBrokerId, int masterEpoch,
                                       Set<Long> newSyncStateSet, int syncStateSetEpoch) {
    public AlterSyncStateSetRequest {
        newSyncStateSet = Set.copyOf(newSyncStateSet);
    }
}
