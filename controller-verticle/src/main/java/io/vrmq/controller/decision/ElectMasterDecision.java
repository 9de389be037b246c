package io.vrmq.controller.decision;

import io.vrmq.controller.state.BrokerReplicaInfo;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.ElectMasterEvent;
import io.vrmq.controller.state.SyncStateInfo;
import io.vrmq.remoting.body.controller.BrokerMemberGroup;
import io.vrmq.remoting.body.controller.ElectMasterResponseBody;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.Set;

/**
 * CONTROLLER_ELECT_MASTER (1002) and the controller's own re-elections, RocketMQ's {@code electMaster}:
 * <ul>
 *   <li>unknown set: CONTROLLER_BROKER_NEED_TO_BE_REGISTERED;</li>
 *   <li>first election of a set (master epoch 0): the requester, without a liveness check;</li>
 *   <li>otherwise {@link ElectPolicy}; the old master chosen again: CONTROLLER_MASTER_STILL_EXIST with the current
 *   master and set; a new master: SUCCESS with epochs + 1, SyncStateSet {new} and the set's members;</li>
 *   <li>nobody: a controller-triggered election records "master lost" (master null, epoch + 1) and answers
 *   CONTROLLER_MASTER_NOT_AVAILABLE; a broker or admin one answers CONTROLLER_ELECT_MASTER_FAILED and changes
 *   nothing.</li>
 * </ul>
 * One difference from 5.5.0: a first election only takes the requester if it is a registered replica of the set
 * (5.5.0 would record an unknown id as master, with no address); otherwise the policy decides. Pure: any thread.
 */
public final class ElectMasterDecision {
    private final ElectPolicy policy = new ElectPolicy();

    public Decision decide(ControllerState state, BrokerLiveness liveness, ElectMasterRequest request,
                           boolean isUncleanElectionEnabled) {
        String brokerName = request.brokerName();
        if (!state.contains(brokerName)) {
            return Decision.refused(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED,
                "Broker hasn't been registered", null);
        }
        SyncStateInfo syncState = state.syncState(brokerName);
        BrokerReplicaInfo info = state.replicaInfo(brokerName);
        Long oldMaster = syncState.masterBrokerId();
        Long newMaster = null;
        if (syncState.isFirstTimeForElect() && info.hasReplica(request.brokerId())) {
            newMaster = request.brokerId();
        }
        if (newMaster == null) {
            Long preferred = request.designateElect() ? request.brokerId() : null;
            Set<Long> allReplicas = isUncleanElectionEnabled ? info.replicas().keySet() : null;
            newMaster = policy.elect(liveness, info.clusterName(), brokerName, syncState.syncStateSet(), allReplicas,
                oldMaster, preferred);
        }
        if (newMaster != null && newMaster.equals(oldMaster)) {
            return masterStillExists(syncState, info);
        }
        if (newMaster != null) {
            return Decision.success(Decision.Header.of().put("masterBrokerId", newMaster)
                    .put("masterAddress", info.addressOf(newMaster))
                    .put("masterEpoch", syncState.masterEpoch() + 1)
                    .put("syncStateSetEpoch", syncState.syncStateSetEpoch() + 1).fields(),
                new ElectMasterResponseBody(new BrokerMemberGroup(info.clusterName(), brokerName, info.addresses()),
                    Set.of(newMaster)),
                new ElectMasterEvent(brokerName, newMaster, syncState.masterEpoch(), syncState.syncStateSetEpoch()));
        }
        if (request.isControllerTriggered()) {
            return new Decision(ResponseCode.CONTROLLER_MASTER_NOT_AVAILABLE,
                "Old master has down and failed to elect a new broker master", null, null,
                new ElectMasterEvent(brokerName, null, syncState.masterEpoch(), syncState.syncStateSetEpoch()));
        }
        return Decision.refused(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, "Failed to elect a new master", null);
    }

    private static Decision masterStillExists(SyncStateInfo syncState, BrokerReplicaInfo info) {
        Long master = syncState.masterBrokerId();
        return new Decision(ResponseCode.CONTROLLER_MASTER_STILL_EXIST, String.format(
            "The old master %s is still alive, not need to elect new master for broker %s", master,
            info.brokerName()),
            Decision.Header.of().put("masterBrokerId", master).put("masterAddress", info.addressOf(master))
                .put("masterEpoch", syncState.masterEpoch())
                .put("syncStateSetEpoch", syncState.syncStateSetEpoch()).fields(),
            new ElectMasterResponseBody(null, syncState.syncStateSet()), null);
    }
}
