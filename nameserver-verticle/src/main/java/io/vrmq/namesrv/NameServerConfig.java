package io.vrmq.namesrv;

import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.transport.RemotingLimits;

import java.util.function.Function;

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
        requireText(bindAddress, "bindAddress");
        requireText(adminHost, "adminHost");
        requireText(kvConfigPath, "kvConfigPath");
        require(adminPort >= -1 && adminPort <= 65535, "adminPort (-1 disables)", adminPort);
        require(scanNotActiveBrokerIntervalMs > 0, "scanNotActiveBrokerInterval", scanNotActiveBrokerIntervalMs);
        require(brokerChannelExpiredTimeMs > 0, "brokerChannelExpiredTime", brokerChannelExpiredTimeMs);
        require(maxConnections > 0, "maxConnections", maxConnections);
        require(shutdownGraceMs > 0, "shutdownGraceMs", shutdownGraceMs);
    }

    public static NameServerConfig from(JsonObject json) {
        return new NameServerConfig(
            setting(json, "listenPort", json::getInteger),
            setting(json, "bindAddress", json::getString),
            setting(json, "adminPort", json::getInteger),
            setting(json, "adminHost", json::getString),
            expandHome(setting(json, "kvConfigPath", json::getString)),
            setting(json, "scanNotActiveBrokerInterval", json::getLong),
            setting(json, "brokerChannelExpiredTime", json::getLong),
            setting(json, "orderMessageEnable", json::getBoolean),
            setting(json, "supportActingMaster", json::getBoolean),
            RemotingLimits.from(json),
            setting(json, "maxConnections", json::getInteger),
            setting(json, "shutdownGraceMs", json::getLong));
    }

    /** A key's value; a missing key or a value of the wrong type is refused naming the key (not an NPE). */
    private static <T> T setting(JsonObject json, String key, Function<String, T> getter) {
        T value;
        try {
            value = getter.apply(key);
        } catch (ClassCastException e) {
            throw new IllegalArgumentException("invalid " + key + ": " + json.getValue(key) + " has the wrong type");
        }
        if (value == null) {
            throw new IllegalArgumentException("missing setting " + key);
        }
        return value;
    }

    static String expandHome(String path) {
        return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
    }

    private static void requireText(String value, String setting) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("invalid " + setting + ": '" + value + "' (must not be blank)");
        }
    }

    private static void require(boolean holds, String setting, long value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
