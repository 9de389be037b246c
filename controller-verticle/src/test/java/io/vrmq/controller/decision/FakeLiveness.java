package io.vrmq.controller.decision;

import java.util.HashMap;
import java.util.Map;

/** A liveness view a test sets replica by replica: alive with a heartbeat, or not alive. */
final class FakeLiveness implements BrokerLiveness {
    static final String CLUSTER = "c1";

    private final Map<String, ReplicaHeartbeat> alive = new HashMap<>();

    /** Replica {@code brokerId} of {@code brokerName} is alive and last reported these numbers. */
    FakeLiveness alive(String brokerName, long brokerId, int epoch, long maxOffset, int electionPriority) {
        alive.put(brokerName + "/" + brokerId, new ReplicaHeartbeat(brokerName, brokerId, "127.0.0.1:" + (10000
            + brokerId), 0, Long.MAX_VALUE, epoch, maxOffset, maxOffset, electionPriority));
        return this;
    }

    FakeLiveness alive(String brokerName, long brokerId) {
        return alive(brokerName, brokerId, 0, 0, Integer.MAX_VALUE);
    }

    FakeLiveness dead(String brokerName, long brokerId) {
        alive.remove(brokerName + "/" + brokerId);
        return this;
    }

    @Override
    public boolean isAlive(String clusterName, String brokerName, long brokerId) {
        return alive.containsKey(brokerName + "/" + brokerId);
    }

    @Override
    public ReplicaHeartbeat heartbeatOf(String clusterName, String brokerName, long brokerId) {
        return alive.get(brokerName + "/" + brokerId);
    }
}
