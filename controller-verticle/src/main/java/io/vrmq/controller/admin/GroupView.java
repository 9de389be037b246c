package io.vrmq.controller.admin;

import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.decision.ReplicaHeartbeat;
import io.vrmq.controller.metrics.ControllerMetrics;
import io.vrmq.controller.state.BrokerReplicaInfo;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.SyncStateInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One broker set as the admin API shows it: the replicated state (master, epochs, SyncStateSet, replicas) joined with
 * this node's heartbeat table (alive, last heartbeat, epoch, offsets, priority, lag behind the master). Immutable.
 *
 * @param masterBrokerId null while the set has no master
 */
public record GroupView(String clusterName, String brokerName, Long masterBrokerId, String masterAddress,
                        int masterEpoch, Set<Long> syncStateSet, int syncStateSetEpoch, long nextAssignBrokerId,
                        List<Replica> replicas) {

    /**
     * @param lastHeartbeatMs epoch millis of the last heartbeat, null if this node has none
     * @param lagBytes        master's max offset minus this replica's, null unless both have reported
     */
    public record Replica(long brokerId, String address, boolean alive, boolean inSyncStateSet, Long lastHeartbeatMs,
                          Integer epoch, Long maxOffset, Long confirmOffset, Integer electionPriority,
                          Long lagBytes) {
    }

    /** Every broker set known to the state, sorted by name. Any thread. */
    public static List<GroupView> describe(ControllerState state, BrokerLiveness liveness) {
        Set<String> names = new TreeSet<>(state.replicaInfos().keySet());
        names.addAll(state.syncStates().keySet());
        List<GroupView> groups = new ArrayList<>();
        for (String brokerName : names) {
            BrokerReplicaInfo info = state.replicaInfo(brokerName);
            SyncStateInfo syncState = state.syncState(brokerName);
            if (syncState == null) {
                syncState = SyncStateInfo.create(info.clusterName(), brokerName);
            }
            String clusterName = info != null ? info.clusterName() : syncState.clusterName();
            groups.add(new GroupView(clusterName, brokerName, syncState.masterBrokerId(),
                info == null ? null : info.addressOf(syncState.masterBrokerId()), syncState.masterEpoch(),
                syncState.syncStateSet(), syncState.syncStateSetEpoch(),
                info == null ? BrokerReplicaInfo.FIRST_BROKER_CONTROLLER_ID : info.nextAssignBrokerId(),
                replicas(clusterName, brokerName, info, syncState, liveness)));
        }
        return groups;
    }

    /** The numbers the per-set gauges show. */
    public ControllerMetrics.GroupSample sample() {
        Map<Long, Long> lags = new LinkedHashMap<>();
        replicas.forEach(replica -> {
            if (replica.lagBytes() != null) {
                lags.put(replica.brokerId(), replica.lagBytes());
            }
        });
        return new ControllerMetrics.GroupSample(brokerName, syncStateSet.size(), lags);
    }

    private static List<Replica> replicas(String clusterName, String brokerName, BrokerReplicaInfo info,
                                          SyncStateInfo syncState, BrokerLiveness liveness) {
        List<Replica> replicas = new ArrayList<>();
        if (info == null) {
            return replicas;
        }
        ReplicaHeartbeat master = syncState.masterBrokerId() == null ? null
            : liveness.heartbeatOf(clusterName, brokerName, syncState.masterBrokerId());
        info.addresses().forEach((brokerId, address) -> {
            ReplicaHeartbeat heartbeat = liveness.heartbeatOf(clusterName, brokerName, brokerId);
            Long lag = master == null || heartbeat == null || master.maxOffset() < 0 || heartbeat.maxOffset() < 0
                ? null : Math.max(0, master.maxOffset() - heartbeat.maxOffset());
            replicas.add(new Replica(brokerId, address, liveness.isAlive(clusterName, brokerName, brokerId),
                syncState.syncStateSet().contains(brokerId),
                heartbeat == null ? null : heartbeat.lastUpdateMs(),
                heartbeat == null ? null : heartbeat.epoch(),
                heartbeat == null ? null : heartbeat.maxOffset(),
                heartbeat == null ? null : heartbeat.confirmOffset(),
                heartbeat == null ? null : heartbeat.electionPriority(), lag));
        });
        return replicas;
    }
}
