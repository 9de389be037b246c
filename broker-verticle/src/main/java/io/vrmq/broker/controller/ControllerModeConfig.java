package io.vrmq.broker.controller;

import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.List;

/**
 * Controller-mode settings (RocketMQ 5's BrokerConfig names and defaults; in {@code broker-defaults.json}).
 *
 * @param enableControllerMode           the controller names this broker's role and id; replication is AutoSwitch HA
 * @param controllerAddrs                the controllers, from {@code controllerAddr} ("host:port;host:port")
 * @param fetchControllerAddrByDnsLookup controllerAddr is one "domain:port" whose A records are the controllers
 *                                       (looked up again every {@link #DNS_LOOKUP_INTERVAL_MS})
 * @param syncBrokerMetadataPeriodMs     how often the broker asks the leader for its set's master and SyncStateSet
 * @param checkSyncStateSetPeriodMs      how often a master looks for slaves to drop from its SyncStateSet
 * @param syncControllerMetadataPeriodMs how often the broker asks the controllers who leads them
 * @param controllerHeartBeatTimeoutMs   how long the controller may miss this broker's heartbeats before it counts it
 *                                       dead (sent in each heartbeat)
 * @param brokerElectionPriority         lower wins when the controller chooses between equally good replicas
 * @param brokerHeartbeatIntervalMs      how often the broker heartbeats every controller
 * @param sendHeartbeatTimeoutMs         how long one heartbeat may take
 * @param storePathBrokerIdentity        the {@code brokerIdentity} file ("" = under storePathRootDir)
 * @param storePathEpochFile             the {@code epochFileCheckpoint} file ("" = under storePathRootDir)
 * @param controllerLeaseMs              ours: a master that has not heard the controller leader confirm its role for
 *                                       this long stops taking sends (unless allAckInSyncStateSet makes that
 *                                       unnecessary), because the controller may have elected another master;
 *                                       shorter than controllerHeartBeatTimeoutMills, after which the controller may elect one
 */
public record ControllerModeConfig(boolean enableControllerMode, List<String> controllerAddrs,
                                   boolean fetchControllerAddrByDnsLookup, long syncBrokerMetadataPeriodMs,
                                   long checkSyncStateSetPeriodMs, long syncControllerMetadataPeriodMs,
                                   long controllerHeartBeatTimeoutMs, int brokerElectionPriority,
                                   long brokerHeartbeatIntervalMs, long sendHeartbeatTimeoutMs,
                                   String storePathBrokerIdentity, String storePathEpochFile, long controllerLeaseMs) {
    public static final long DNS_LOOKUP_INTERVAL_MS = 2 * 60 * 1000;

    public ControllerModeConfig {
        require(!enableControllerMode || !controllerAddrs.isEmpty(), "controllerAddr (required with "
            + "enableControllerMode)", String.join(";", controllerAddrs));
        require(!fetchControllerAddrByDnsLookup || controllerAddrs.size() == 1,
            "controllerAddr (one domain:port with fetchControllerAddrByDnsLookup)", String.join(";", controllerAddrs));
        controllerAddrs.forEach(addr -> require(addr.lastIndexOf(':') > 0, "controllerAddr (host:port)", addr));
        require(syncBrokerMetadataPeriodMs >= 100, "syncBrokerMetadataPeriod", syncBrokerMetadataPeriodMs);
        require(checkSyncStateSetPeriodMs >= 100, "checkSyncStateSetPeriod", checkSyncStateSetPeriodMs);
        require(syncControllerMetadataPeriodMs >= 100, "syncControllerMetadataPeriod", syncControllerMetadataPeriodMs);
        require(brokerHeartbeatIntervalMs >= 10, "brokerHeartbeatInterval", brokerHeartbeatIntervalMs);
        require(controllerHeartBeatTimeoutMs > brokerHeartbeatIntervalMs,
            "controllerHeartBeatTimeoutMills (must exceed brokerHeartbeatInterval)", controllerHeartBeatTimeoutMs);
        require(sendHeartbeatTimeoutMs > 0, "sendHeartbeatTimeoutMillis", sendHeartbeatTimeoutMs);
        require(controllerLeaseMs > brokerHeartbeatIntervalMs && controllerLeaseMs < controllerHeartBeatTimeoutMs,
            "controllerLeaseMs (between brokerHeartbeatInterval and controllerHeartBeatTimeoutMills)",
            controllerLeaseMs);
    }

    public static ControllerModeConfig from(JsonObject json) {
        return new ControllerModeConfig(json.getBoolean("enableControllerMode"),
            split(json.getString("controllerAddr")), json.getBoolean("fetchControllerAddrByDnsLookup"),
            json.getLong("syncBrokerMetadataPeriod"), json.getLong("checkSyncStateSetPeriod"),
            json.getLong("syncControllerMetadataPeriod"), json.getLong("controllerHeartBeatTimeoutMills"),
            json.getInteger("brokerElectionPriority"), json.getLong("brokerHeartbeatInterval"),
            json.getLong("sendHeartbeatTimeoutMillis"), json.getString("storePathBrokerIdentity").trim(),
            json.getString("storePathEpochFile").trim(), json.getLong("controllerLeaseMs"));
    }

    /** The brokerIdentity file: the configured path, else {@code <storePathRootDir>/brokerIdentity}. */
    public String brokerIdentityPath(String storePathRootDir) {
        return storePathBrokerIdentity.isEmpty() ? storePathRootDir + "/brokerIdentity" : storePathBrokerIdentity;
    }

    /** The epoch file: the configured path, else {@code <storePathRootDir>/epochFileCheckpoint}. */
    public String epochFilePath(String storePathRootDir) {
        return storePathEpochFile.isEmpty() ? storePathRootDir + "/epochFileCheckpoint" : storePathEpochFile;
    }

    private static List<String> split(String addrs) {
        return addrs == null ? List.of() : Arrays.stream(addrs.split(";")).map(String::trim)
            .filter(addr -> !addr.isEmpty()).toList();
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
