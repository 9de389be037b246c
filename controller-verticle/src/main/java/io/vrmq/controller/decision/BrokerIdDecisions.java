package io.vrmq.controller.decision;

import io.vrmq.controller.state.ApplyBrokerIdEvent;
import io.vrmq.controller.state.BrokerReplicaInfo;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.SyncStateInfo;
import io.vrmq.controller.state.UpdateBrokerAddressEvent;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.Map;

/**
 * How a broker gets and announces its controller id, RocketMQ's checks in their order and with their codes:
 * CONTROLLER_GET_NEXT_BROKER_ID (1012), CONTROLLER_APPLY_BROKER_ID (1013), CONTROLLER_REGISTER_BROKER (1003).
 * Pure functions of the state (and, for register, liveness): any thread.
 */
public final class BrokerIdDecisions {
    private BrokerIdDecisions() {
    }

    /** 1 for an unknown set, else the set's next id. A read: no event. */
    public static Decision nextBrokerId(ControllerState state, String clusterName, String brokerName) {
        BrokerReplicaInfo info = state.replicaInfo(brokerName);
        long next = info == null ? BrokerReplicaInfo.FIRST_BROKER_CONTROLLER_ID : info.nextAssignBrokerId();
        return Decision.success(Decision.Header.of().put("clusterName", clusterName).put("brokerName", brokerName)
            .put("nextBrokerId", next).fields(), null, null);
    }

    /**
     * An unknown set accepts only id 1; a known one an unused id, or one applied before with the same check code
     * (the broker's retry). Anything else: CONTROLLER_BROKER_ID_INVALID.
     */
    public static Decision applyBrokerId(ControllerState state, ApplyBrokerIdRequest request) {
        Map<String, String> header = Decision.Header.of().put("clusterName", request.clusterName())
            .put("brokerName", request.brokerName()).fields();
        BrokerReplicaInfo info = state.replicaInfo(request.brokerName());
        long brokerId = request.appliedBrokerId();
        ApplyBrokerIdEvent event = new ApplyBrokerIdEvent(request.clusterName(), request.brokerName(), brokerId,
            request.brokerAddress(), request.registerCheckCode());
        if (info == null) {
            if (brokerId == BrokerReplicaInfo.FIRST_BROKER_CONTROLLER_ID) {
                return Decision.success(header, null, event);
            }
            return Decision.refused(ResponseCode.CONTROLLER_BROKER_ID_INVALID, String.format(
                "Broker-set: %s hasn't been registered in controller, but broker try to apply brokerId: %d",
                request.brokerName(), brokerId), header);
        }
        if (!info.hasReplica(brokerId)
            || request.registerCheckCode().equals(info.replicas().get(brokerId).registerCheckCode())) {
            return Decision.success(header, null, event);
        }
        return Decision.refused(ResponseCode.CONTROLLER_BROKER_ID_INVALID, String.format(
            "Fail to apply brokerId: %d in broker-set: %s", brokerId, request.brokerName()), header);
    }

    /**
     * A broker with an applied id announces itself: CONTROLLER_BROKER_NEED_TO_BE_REGISTERED for an unknown set or id;
     * else the SyncStateSet, the master if it is alive, and an address update if the broker moved.
     */
    public static Decision registerBroker(ControllerState state, BrokerLiveness liveness,
                                          RegisterBrokerRequest request) {
        Decision.Header header = Decision.Header.of().put("clusterName", request.clusterName())
            .put("brokerName", request.brokerName());
        if (!state.contains(request.brokerName())) {
            return Decision.refused(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, String.format(
                "Broker-set: %s hasn't been registered in controller", request.brokerName()), header.fields());
        }
        BrokerReplicaInfo info = state.replicaInfo(request.brokerName());
        SyncStateInfo syncState = state.syncState(request.brokerName());
        if (!info.hasReplica(request.brokerId())) {
            return Decision.refused(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, String.format(
                "BrokerId: %d hasn't been registered in broker-set: %s", request.brokerId(), request.brokerName()),
                header.fields());
        }
        if (syncState.hasMaster()
            && liveness.isAlive(request.clusterName(), request.brokerName(), syncState.masterBrokerId())) {
            header.put("masterBrokerId", syncState.masterBrokerId())
                .put("masterAddress", info.addressOf(syncState.masterBrokerId()))
                .put("masterEpoch", syncState.masterEpoch())
                .put("syncStateSetEpoch", syncState.syncStateSetEpoch());
        }
        SyncStateSetBody body = new SyncStateSetBody(syncState.syncStateSet(), syncState.syncStateSetEpoch());
        UpdateBrokerAddressEvent event = request.brokerAddress().equals(info.addressOf(request.brokerId())) ? null
            : new UpdateBrokerAddressEvent(request.clusterName(), request.brokerName(), request.brokerId(),
            request.brokerAddress());
        return Decision.success(header.fields(), body, event);
    }
}
