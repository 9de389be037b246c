package io.vrmq.controller.decision;

/**
 * CONTROLLER_APPLY_BROKER_ID (1013).
 *
 * @param registerCheckCode {@code "<brokerAddr>;<epochMillis>"}; the text before the first ';' is the address
 */
public record ApplyBrokerIdRequest(String clusterName, String brokerName, long appliedBrokerId,
                                   String registerCheckCode) {

    public String brokerAddress() {
        int separator = registerCheckCode.indexOf(';');
        return separator < 0 ? registerCheckCode : registerCheckCode.substring(0, separator);
    }
}
