package io.vrmq.controller.heartbeat;

/** The key of a heartbeat: which replica of which set of which cluster. */
public record BrokerIdentity(String clusterName, String brokerName, long brokerId) {
}
