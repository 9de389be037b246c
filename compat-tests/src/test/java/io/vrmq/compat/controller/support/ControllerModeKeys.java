package io.vrmq.compat.controller.support;

import java.util.Map;

/** broker.json keys of our brokers in controller mode, as tests set them. */
public final class ControllerModeKeys {
    private ControllerModeKeys() {
    }

    /**
     * Apache's sample settings (brokerId -1, brokerRole SLAVE: the controller decides) with allAckInSyncStateSet, and
     * shorter periods so that a test sees SyncStateSet changes and copied metadata within a couple of seconds.
     */
    public static Map<String, Object> allAck(String controllerAddr) {
        return keys(controllerAddr, true);
    }

    /** The same without allAckInSyncStateSet: a master answers on its own, under the controller lease. */
    public static Map<String, Object> masterAcks(String controllerAddr) {
        return keys(controllerAddr, false);
    }

    private static Map<String, Object> keys(String controllerAddr, boolean allAckInSyncStateSet) {
        return Map.of("enableControllerMode", true, "controllerAddr", controllerAddr, "brokerId", -1,
            "brokerRole", "SLAVE", "allAckInSyncStateSet", allAckInSyncStateSet, "syncBrokerMetadataPeriod", 2_000,
            "checkSyncStateSetPeriod", 2_000, "slaveSyncMetadataInterval", 1_000);
    }
}
