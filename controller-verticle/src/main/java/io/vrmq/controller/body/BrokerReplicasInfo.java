package io.vrmq.controller.body;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The body of a CONTROLLER_GET_SYNC_STATE_DATA (1006) answer, RocketMQ's {@code BrokerReplicasInfo} as mqadmin
 * getSyncStateSet reads it:
 * <pre>{"replicasInfoTable":{"b1":{"inSyncReplicas":[{"alive":true,"brokerAddress":"...:47911","brokerId":1,
 *  "brokerName":"b1"}],"masterAddress":"...:47911","masterBrokerId":1,"masterEpoch":1,"notInSyncReplicas":[],
 *  "syncStateSetEpoch":2}}}</pre>
 * Immutable.
 */
public record BrokerReplicasInfo(SortedMap<String, ReplicasInfo> replicasInfoTable) {
    public BrokerReplicasInfo {
        replicasInfoTable = replicasInfoTable == null ? Collections.emptySortedMap()
            : Collections.unmodifiableSortedMap(new TreeMap<>(replicasInfoTable));
    }

    /** One broker set; {@code masterBrokerId} and {@code masterAddress} are left out while it has no master. */
    public record ReplicasInfo(Long masterBrokerId, String masterAddress, int masterEpoch, int syncStateSetEpoch,
                               List<ReplicaIdentity> inSyncReplicas, List<ReplicaIdentity> notInSyncReplicas) {
        public ReplicasInfo {
            inSyncReplicas = List.copyOf(inSyncReplicas);
            notInSyncReplicas = List.copyOf(notInSyncReplicas);
        }
    }

    public record ReplicaIdentity(String brokerName, long brokerId, String brokerAddress, boolean alive) {
    }
}
