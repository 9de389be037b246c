package io.vrmq.controller.decision;

import io.vrmq.controller.body.BrokerReplicasInfo;
import io.vrmq.controller.state.AlterSyncStateSetEvent;
import io.vrmq.controller.state.BrokerReplicaInfo;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.SyncStateInfo;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The SyncStateSet requests, RocketMQ's checks in their order and with their codes: CONTROLLER_ALTER_SYNC_STATE_SET
 * (1001), CONTROLLER_GET_REPLICA_INFO (1004), CONTROLLER_GET_SYNC_STATE_DATA (1006); and the leader's scan for sets
 * whose master went silent. Pure functions of state and liveness: any thread.
 */
public final class SyncStateDecisions {
    private SyncStateDecisions() {
    }

    /**
     * In order: set known, set actually changes, requester is the master, master epoch, set epoch, every id
     * registered and alive, master still inside. Success: the set with epoch + 1.
     */
    public static Decision alterSyncStateSet(ControllerState state, BrokerLiveness liveness,
                                             AlterSyncStateSetRequest request) {
        String brokerName = request.brokerName();
        Set<Long> proposed = request.newSyncStateSet();
        if (!state.contains(brokerName)) {
            return refusedAlter(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, "Broker metadata is not existed");
        }
        SyncStateInfo syncState = state.syncState(brokerName);
        BrokerReplicaInfo info = state.replicaInfo(brokerName);
        if (syncState.syncStateSet().equals(proposed)) {
            return refusedAlter(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED,
                "The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet");
        }
        if (!syncState.hasMaster() || !syncState.masterBrokerId().equals(request.masterBrokerId())) {
            return refusedAlter(ResponseCode.CONTROLLER_INVALID_MASTER, String.format(
                "Rejecting alter syncStateSet request because the current leader is:{%s}, not {%s}",
                syncState.masterBrokerId(), request.masterBrokerId()));
        }
        if (request.masterEpoch() != syncState.masterEpoch()) {
            return refusedAlter(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH, String.format(
                "Rejecting alter syncStateSet request because the current master epoch is:{%d}, not {%d}",
                syncState.masterEpoch(), request.masterEpoch()));
        }
        if (request.syncStateSetEpoch() != syncState.syncStateSetEpoch()) {
            return refusedAlter(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, String.format(
                "Rejecting alter syncStateSet request because the current syncStateSet epoch is:{%d}, not {%d}",
                syncState.syncStateSetEpoch(), request.syncStateSetEpoch()));
        }
        for (Long replica : new TreeSet<>(proposed)) {
            if (!info.hasReplica(replica)) {
                return refusedAlter(ResponseCode.CONTROLLER_INVALID_REPLICAS, String.format(
                    "Rejecting alter syncStateSet request because the replicas {%s} don't exist", replica));
            }
            if (!liveness.isAlive(info.clusterName(), brokerName, replica)) {
                return refusedAlter(ResponseCode.CONTROLLER_BROKER_NOT_ALIVE, String.format(
                    "Rejecting alter syncStateSet request because the replicas {%s} don't alive", replica));
            }
        }
        if (!proposed.contains(syncState.masterBrokerId())) {
            return refusedAlter(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, String.format(
                "Rejecting alter syncStateSet request because the newSyncStateSet don't contains origin leader {%s}",
                syncState.masterBrokerId()));
        }
        int newEpoch = syncState.syncStateSetEpoch() + 1;
        AlterSyncStateSetEvent event = new AlterSyncStateSetEvent(brokerName, syncState.masterBrokerId(),
            syncState.masterEpoch(), syncState.syncStateSetEpoch(), new TreeSet<>(proposed));
        return Decision.success(Decision.Header.of().put("newSyncStateSetEpoch", newEpoch).fields(),
            new SyncStateSetBody(proposed, newEpoch), event);
    }

    /** The set's master (id, address, epoch) and SyncStateSet; CONTROLLER_BROKER_METADATA_NOT_EXIST if unknown. */
    public static Decision replicaInfo(ControllerState state, String brokerName) {
        if (!state.contains(brokerName)) {
            return Decision.refused(ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST, "Broker metadata is not existed",
                null);
        }
        SyncStateInfo syncState = state.syncState(brokerName);
        BrokerReplicaInfo info = state.replicaInfo(brokerName);
        return Decision.success(Decision.Header.of().put("masterBrokerId", syncState.masterBrokerId())
                .put("masterAddress", info.addressOf(syncState.masterBrokerId()))
                .put("masterEpoch", syncState.masterEpoch()).fields(),
            new SyncStateSetBody(syncState.syncStateSet(), syncState.syncStateSetEpoch()), null);
    }

    /** Every known set among {@code brokerNames}: master, epochs, and each replica in or out of sync, alive or not. */
    public static Decision syncStateData(ControllerState state, BrokerLiveness liveness, List<String> brokerNames) {
        TreeMap<String, BrokerReplicasInfo.ReplicasInfo> table = new TreeMap<>();
        for (String brokerName : brokerNames) {
            if (!state.contains(brokerName)) {
                continue;
            }
            SyncStateInfo syncState = state.syncState(brokerName);
            BrokerReplicaInfo info = state.replicaInfo(brokerName);
            List<BrokerReplicasInfo.ReplicaIdentity> inSync = new ArrayList<>();
            List<BrokerReplicasInfo.ReplicaIdentity> notInSync = new ArrayList<>();
            info.addresses().forEach((brokerId, address) -> {
                BrokerReplicasInfo.ReplicaIdentity replica = new BrokerReplicasInfo.ReplicaIdentity(brokerName,
                    brokerId, address, liveness.isAlive(info.clusterName(), brokerName, brokerId));
                (syncState.syncStateSet().contains(brokerId) ? inSync : notInSync).add(replica);
            });
            table.put(brokerName, new BrokerReplicasInfo.ReplicasInfo(syncState.masterBrokerId(),
                info.addressOf(syncState.masterBrokerId()), syncState.masterEpoch(), syncState.syncStateSetEpoch(),
                inSync, notInSync));
        }
        return Decision.success(null, new BrokerReplicasInfo(table), null);
    }

    /** Sets whose master this node no longer hears from while at least one of their replicas is alive. */
    public static List<String> setsNeedingReelection(ControllerState state, BrokerLiveness liveness) {
        List<String> brokerNames = new ArrayList<>();
        state.syncStates().forEach((brokerName, syncState) -> {
            BrokerReplicaInfo info = state.replicaInfo(brokerName);
            if (!syncState.hasMaster() || info == null) {
                return;
            }
            String clusterName = syncState.clusterName();
            if (!liveness.isAlive(clusterName, brokerName, syncState.masterBrokerId())
                && info.replicas().keySet().stream().anyMatch(id -> liveness.isAlive(clusterName, brokerName, id))) {
                brokerNames.add(brokerName);
            }
        });
        return brokerNames;
    }

    private static Decision refusedAlter(int code, String remark) {
        // RocketMQ's response header is an int field, so a refusal still carries newSyncStateSetEpoch=0.
        Map<String, String> header = Decision.Header.of().put("newSyncStateSetEpoch", 0).fields();
        return Decision.refused(code, remark, header);
    }
}
