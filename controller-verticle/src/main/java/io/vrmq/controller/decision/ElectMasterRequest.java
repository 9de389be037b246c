package io.vrmq.controller.decision;

/**
 * CONTROLLER_ELECT_MASTER (1002), RocketMQ's {@code ElectMasterRequestHeader}.
 *
 * @param brokerId       the requesting broker's id (broker trigger), the preferred id (admin trigger, with
 *                       {@code designateElect}), or {@link #CONTROLLER_TRIGGER} when the controller itself elects
 * @param designateElect true for an admin's {@code electMaster}: elect {@code brokerId} or nobody
 */
public record ElectMasterRequest(String clusterName, String brokerName, long brokerId, boolean designateElect) {
    public static final long CONTROLLER_TRIGGER = -1;

    /** The controller re-elects because the master went silent or its connection closed. */
    public static ElectMasterRequest ofControllerTrigger(String clusterName, String brokerName) {
        return new ElectMasterRequest(clusterName, brokerName, CONTROLLER_TRIGGER, false);
    }

    public boolean isControllerTriggered() {
        return brokerId == CONTROLLER_TRIGGER;
    }
}
