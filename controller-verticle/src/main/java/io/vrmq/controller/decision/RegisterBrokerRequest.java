package io.vrmq.controller.decision;

/** CONTROLLER_REGISTER_BROKER (1003): a broker with an applied id announces its address. */
public record RegisterBrokerRequest(String clusterName, String brokerName, long brokerId, String brokerAddress) {
}
