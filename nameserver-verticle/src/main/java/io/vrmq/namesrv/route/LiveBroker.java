package io.vrmq.namesrv.route;

import io.vrmq.remoting.body.DataVersion;

/** A read-only view of one live broker process, for the admin API. */
public record LiveBroker(String clusterName, String brokerName, long brokerId, String brokerAddr,
                         String haServerAddr, long lastUpdateTimestamp, DataVersion dataVersion) {
}
