package io.vrmq.controller.decision;

/**
 * Which replicas this controller node currently hears from. Liveness is local to each node (brokers send heartbeats
 * to every controller), as in RocketMQ's DLedger mode; it is never replicated.
 */
public interface BrokerLiveness {
    boolean isAlive(String clusterName, String brokerName, long brokerId);

    /** The replica's last heartbeat, or null when this node has none. */
    ReplicaHeartbeat heartbeatOf(String clusterName, String brokerName, long brokerId);
}
