package io.vrmq.namesrv;

import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.transport.RemotingLimits;

/**
 * The NameServer's settings (keys and defaults in {@code namesrv-defaults.json}; RocketMQ's names where it has
 * one). Validated once at start: a bad value stops the start with a message naming it.
 *
 * @param scanNotActiveBrokerIntervalMs how often the liveness scan runs
 * @param brokerChannelExpiredTimeMs    how long a broker may stay silent before it is dropped
 */
public record NameServerConfig(int listenPort, String bindAddress, int adminPort, String adminHost,
                               String kvConfigPath, long scanNotActiveBrokerIntervalMs,
                               long brokerChannelExpiredTimeMs, boolean orderMessageEnable,
                               boolean supportActingMaster, RemotingLimits limits, int maxConnections,
                               long shutdownGraceMs) {
    public NameServerConfig {
        require(listenPort >= 0 && listenPort <= 65535, "listenPort", listenPort);
        require(adminPort >= -1 && adminPort <= 65535, "adminPort (-1 disables)", adminPort);
        require(scanNotActiveBrokerIntervalMs > 0, "scanNotActiveBrokerInterval", scanNotActiveBrokerIntervalMs);
        require(brokerChannelExpiredTimeMs > 0, "brokerChannelExpiredTime", brokerChannelExpiredTimeMs);
        require(maxConnections > 0, "maxConnections", maxConnections);
        require(shutdownGraceMs >= 0, "shutdownGraceMs", shutdownGraceMs);
    }

    public static NameServerConfig from(JsonObject json) {
        return new NameServerConfig(
            json.getInteger("listenPort"),
            json.getString("bindAddress"),
            json.getInteger("adminPort"),
            json.getString("adminHost"),
            expandHome(json.getString("kvConfigPath")),
            json.getLong("scanNotActiveBrokerInterval"),
            json.getLong("brokerChannelExpiredTime"),
            json.getBoolean("orderMessageEnable"),
            json.getBoolean("supportActingMaster"),
            RemotingLimits.from(json),
            json.getInteger("maxConnections"),
            json.getLong("shutdownGraceMs"));
    }

    static String expandHome(String path) {
        return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
    }

    private static void require(boolean holds, String setting, long value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
