package io.vrmq.controller.decision;

/**
 * CLEAN_BROKER_DATA (1011), from mqadmin cleanBrokerMetadata.
 *
 * @param brokerControllerIdsToClean {@code "1;2;3"}, or null/blank for the whole set
 * @param isCleanLivingBroker        also clean replicas that are alive (or a set that still has a master)
 */
public record CleanBrokerDataRequest(String clusterName, String brokerName, String brokerControllerIdsToClean,
                                     boolean isCleanLivingBroker) {
}
