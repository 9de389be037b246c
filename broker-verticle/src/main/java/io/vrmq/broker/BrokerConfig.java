package io.vrmq.broker;

import io.vertx.core.json.JsonObject;
import io.vrmq.broker.controller.ControllerModeConfig;
import io.vrmq.broker.grpc.GrpcConfig;
import io.vrmq.broker.ha.HaConfig;
import io.vrmq.broker.ha.autoswitch.AutoSwitchConfig;
import io.vrmq.broker.processor.PullTransferLimits;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.transaction.TransactionConfig;
import io.vrmq.remoting.transport.RemotingLimits;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The broker's settings (keys and defaults in {@code broker-defaults.json}; RocketMQ's names where it has one).
 * Validated at start: a bad value stops the start with a message naming it.
 */
public record BrokerConfig(String brokerClusterName, String brokerName, long brokerId, String brokerRole,
                           List<String> namesrvAddrs, int listenPort, String bindAddress, String brokerIP1,
                           int brokerPermission, String storePathRootDir, boolean autoCreateTopicEnable,
                           boolean autoCreateSubscriptionGroup, int defaultTopicQueueNums,
                           long registerNameServerPeriodMs, boolean longPollingEnable, long shortPollingTimeMs,
                           int maxHeldPullRequests, long flushConsumerOffsetIntervalMs, long channelExpiredTimeoutMs,
                           long clientChannelScanIntervalMs, String messageDelayLevel, int maxReconsumeTimes,
                           int storeReaderThreads, int maxMessageSize, int adminPort, String adminHost,
                           String adminToken, RemotingLimits limits, int maxConnections, long shutdownGraceMs,
                           HaConfig ha, TransactionConfig transaction, ControllerModeConfig controllerMode,
                           AutoSwitchConfig autoSwitch, GrpcConfig grpc,
                           PullTransferLimits pullTransfer, int heartbeatDecodeOnWorkerBytes) {
    public static final String ASYNC_MASTER = "ASYNC_MASTER";
    public static final String SYNC_MASTER = "SYNC_MASTER";
    public static final String SLAVE = "SLAVE";

    public BrokerConfig {
        require(!brokerClusterName.isBlank(), "brokerClusterName", brokerClusterName);
        require(!brokerName.isBlank(), "brokerName", brokerName);
        require(brokerId >= 0 || controllerMode.enableControllerMode(), "brokerId (below 0 only in controller mode)",
            brokerId);
        require(List.of(ASYNC_MASTER, SYNC_MASTER, SLAVE).contains(brokerRole), "brokerRole", brokerRole);
        require(listenPort >= 0 && listenPort <= 65535, "listenPort", listenPort);
        require(listenPort == 0 || listenPort >= 3, "listenPort (the fast channel listens on listenPort - 2)",
            listenPort);
        require(brokerPermission > 0 && brokerPermission <= 7, "brokerPermission", brokerPermission);
        require(defaultTopicQueueNums > 0 && defaultTopicQueueNums <= 1024, "defaultTopicQueueNums",
            defaultTopicQueueNums);
        require(registerNameServerPeriodMs >= 1000, "registerNameServerPeriod", registerNameServerPeriodMs);
        require(shortPollingTimeMs > 0, "shortPollingTimeMills", shortPollingTimeMs);
        require(maxHeldPullRequests > 0, "maxHeldPullRequests", maxHeldPullRequests);
        require(flushConsumerOffsetIntervalMs > 0, "flushConsumerOffsetInterval", flushConsumerOffsetIntervalMs);
        require(channelExpiredTimeoutMs > 0, "channelExpiredTimeout", channelExpiredTimeoutMs);
        require(clientChannelScanIntervalMs > 0, "clientChannelScanInterval", clientChannelScanIntervalMs);
        require(maxReconsumeTimes >= 0, "maxReconsumeTimes", maxReconsumeTimes);
        require(storeReaderThreads > 0, "storeReaderThreads", storeReaderThreads);
        require(shutdownGraceMs > 0, "shutdownGraceMs", shutdownGraceMs);
        require(maxMessageSize > 0 && maxMessageSize < limits.maxFrameBytes(),
            "maxMessageSize (must be below maxFrameBytes " + limits.maxFrameBytes() + ")", maxMessageSize);
        require(adminPort >= -1 && adminPort <= 65535, "adminPort (-1 disables)", adminPort);
        require(maxConnections > 0, "maxConnections", maxConnections);
        require(heartbeatDecodeOnWorkerBytes >= 0, "heartbeatDecodeOnWorkerBytes", heartbeatDecodeOnWorkerBytes);
        require(!grpc.isEnabled() || grpc.grpcListenPort() == 0 || grpc.grpcListenPort() != listenPort,
            "grpcListenPort (must differ from listenPort)", grpc.grpcListenPort());
        require(controllerMode.enableControllerMode() || SLAVE.equals(brokerRole) == (brokerId != 0),
            "brokerId/brokerRole (a master has brokerId 0, a SLAVE a brokerId of 1 or more)", brokerId + "/"
                + brokerRole);
    }

    public static BrokerConfig from(JsonObject json) {
        return new BrokerConfig(
            json.getString("brokerClusterName"), json.getString("brokerName"), json.getLong("brokerId"),
            json.getString("brokerRole"), splitAddrs(json.getString("namesrvAddr")), json.getInteger("listenPort"),
            json.getString("bindAddress"), resolveBrokerIp(json.getString("brokerIP1")),
            json.getInteger("brokerPermission"), expandHome(json.getString("storePathRootDir")),
            json.getBoolean("autoCreateTopicEnable"), json.getBoolean("autoCreateSubscriptionGroup"),
            json.getInteger("defaultTopicQueueNums"), json.getLong("registerNameServerPeriod"),
            json.getBoolean("longPollingEnable"), json.getLong("shortPollingTimeMills"),
            json.getInteger("maxHeldPullRequests"), json.getLong("flushConsumerOffsetInterval"),
            json.getLong("channelExpiredTimeout"), json.getLong("clientChannelScanInterval"),
            json.getString("messageDelayLevel"), json.getInteger("maxReconsumeTimes"),
            json.getInteger("storeReaderThreads"), json.getInteger("maxMessageSize"), json.getInteger("adminPort"),
            json.getString("adminHost"), json.getString("adminToken"), RemotingLimits.from(json),
            json.getInteger("maxConnections"), json.getLong("shutdownGraceMs"), HaConfig.from(json),
            TransactionConfig.from(json), ControllerModeConfig.from(json), AutoSwitchConfig.from(json),
            GrpcConfig.from(json), PullTransferLimits.from(json), json.getInteger("heartbeatDecodeOnWorkerBytes"));
    }

    /** The values the store takes, under the store's key names. */
    public static Map<String, Object> storeValues(JsonObject json, String storeHost) {
        return Map.ofEntries(
            Map.entry("storePathRootDir", expandHome(json.getString("storePathRootDir"))),
            Map.entry("flushDiskType", json.getString("flushDiskType")),
            Map.entry("mappedFileSizeCommitLog", json.getInteger("mappedFileSizeCommitLog")),
            Map.entry("mappedFileSizeConsumeQueue", json.getInteger("mappedFileSizeConsumeQueue")),
            Map.entry("flushIntervalCommitLogMs", json.getLong("flushIntervalCommitLog")),
            Map.entry("flushCommitLogLeastPages", json.getInteger("flushCommitLogLeastPages")),
            Map.entry("flushIntervalConsumeQueueMs", json.getLong("flushIntervalConsumeQueue")),
            Map.entry("flushConsumeQueueLeastPages", json.getInteger("flushConsumeQueueLeastPages")),
            Map.entry("flushConsumeQueueThoroughIntervalMs", json.getLong("flushConsumeQueueThoroughInterval")),
            Map.entry("syncFlushTimeoutMs", json.getLong("syncFlushTimeout")),
            Map.entry("maxMessageSize", json.getInteger("maxMessageSize")),
            Map.entry("deleteWhen", json.getString("deleteWhen")),
            Map.entry("fileReservedTimeHours", json.getInteger("fileReservedTime")),
            Map.entry("diskMaxUsedSpaceRatio", json.getInteger("diskMaxUsedSpaceRatio")),
            Map.entry("diskCriticalRatio", json.getInteger("diskCriticalRatio")),
            Map.entry("accessMessageInMemoryMaxRatio", json.getInteger("accessMessageInMemoryMaxRatio")),
            Map.entry("renewReservedOffsetsAhead", json.containsKey("renewReservedOffsetsAhead")
                ? json.getValue("renewReservedOffsetsAhead") : Boolean.TRUE),
            Map.entry("reservedOffsetSeedMaxQueues", json.getInteger("reservedOffsetSeedMaxQueues", 20_000)),
            Map.entry("storeHost", storeHost));
    }

    /** A classic master (controller mode: the controller decides, see the broker's RoleState). */
    public boolean isMaster() {
        return !controllerMode.enableControllerMode() && brokerId == 0 && !SLAVE.equals(brokerRole);
    }

    public boolean isSyncMaster() {
        return SYNC_MASTER.equals(brokerRole);
    }

    /** The fixed role of a broker in the classic modes (not controller mode), as configured. */
    public BrokerRole classicRole() {
        return new BrokerRole(brokerRole, brokerId, 0, false);
    }

    /** "ip:port" that clients and NameServers use for this broker. */
    public String brokerAddr(int boundPort) {
        return brokerIP1 + ":" + boundPort;
    }

    static List<String> splitAddrs(String namesrvAddr) {
        return namesrvAddr == null || namesrvAddr.isBlank() ? List.of()
            : Arrays.stream(namesrvAddr.split(";")).map(String::trim).filter(addr -> !addr.isEmpty()).toList();
    }

    static String expandHome(String path) {
        return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
    }

    /** RocketMQ's choice when brokerIP1 is unset: the first site address of this host, else loopback. */
    static String resolveBrokerIp(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("cannot list network interfaces to pick brokerIP1; set it", e);
        }
        return "127.0.0.1";
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
