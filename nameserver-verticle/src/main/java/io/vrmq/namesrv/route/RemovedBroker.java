package io.vrmq.namesrv.route;

/** A broker process dropped from the tables (unregistered, expired, or its connection closed). */
public record RemovedBroker(String clusterName, String brokerName, long brokerId, String brokerAddr) {
}
