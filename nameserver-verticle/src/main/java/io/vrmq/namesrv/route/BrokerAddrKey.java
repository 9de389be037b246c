package io.vrmq.namesrv.route;

/** A broker process as the NameServer tracks liveness: its cluster and address (one process may serve two clusters). */
public record BrokerAddrKey(String clusterName, String brokerAddr) {
}
