package io.vrmq.controller.decision;

import io.vrmq.controller.state.CleanBrokerDataEvent;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.SyncStateInfo;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.TreeSet;

/**
 * CLEAN_BROKER_DATA (1011), RocketMQ's checks in their order. Unless living brokers may be cleaned: no id list while
 * the set still records a master, or any listed id alive, is refused with CONTROLLER_INVALID_CLEAN_BROKER_METADATA;
 * so is a malformed list and an unknown set. Pure: any thread.
 */
public final class CleanBrokerDataDecision {
    private CleanBrokerDataDecision() {
    }

    public static Decision decide(ControllerState state, BrokerLiveness liveness, CleanBrokerDataRequest request) {
        String brokerName = request.brokerName();
        String idList = request.brokerControllerIdsToClean();
        boolean hasIdList = idList != null && !idList.isBlank();
        TreeSet<Long> brokerIds = null;
        if (!request.isCleanLivingBroker()) {
            SyncStateInfo syncState = state.syncState(brokerName);
            if (!hasIdList && syncState != null && syncState.hasMaster()) {
                return refused(String.format("Broker %s is still alive, clean up failure", brokerName));
            }
        }
        if (hasIdList) {
            brokerIds = new TreeSet<>();
            for (String id : idList.split(";")) {
                try {
                    brokerIds.add(Long.valueOf(id.trim()));
                } catch (NumberFormatException e) {
                    return refused("Please set the option <brokerControllerIdsToClean> according to the format, "
                        + "exception: " + e);
                }
            }
            if (!request.isCleanLivingBroker()) {
                for (Long brokerId : brokerIds) {
                    if (liveness.isAlive(request.clusterName(), brokerName, brokerId)) {
                        return refused(String.format("Broker [%s,  %s] is still alive, clean up failure", brokerName,
                            brokerId));
                    }
                }
            }
        }
        if (state.contains(brokerName)) {
            return Decision.success(null, null, new CleanBrokerDataEvent(brokerName, brokerIds));
        }
        return refused(String.format("Broker %s is not existed,clean broker data failure.", brokerName));
    }

    private static Decision refused(String remark) {
        return Decision.refused(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA, remark, null);
    }
}
