package io.vrmq.compat.support;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a test needs to set on the NameServer it starts, in RocketMQ's names and units. Ports are not here: each
 * launcher picks a free one.
 *
 * @param scanNotActiveBrokerIntervalMs how often the NameServer looks for silent brokers
 * @param brokerChannelExpiredTimeMs    how long a broker may stay silent before it is dropped (ours only: Apache's
 *                                      NameServer has this as a constant of 120 s, or takes it per registration)
 * @param kvConfigPath                  the file that keeps the KV config across restarts
 * @param tlsServerMode                 tls.server.mode: disabled, permissive (Apache's default) or enforcing
 * @param extraConfig                   further keys of our NameServer's config (strings or booleans; ours only)
 */
public record NameServerSettings(long scanNotActiveBrokerIntervalMs, long brokerChannelExpiredTimeMs,
                                 Path kvConfigPath, String tlsServerMode, Map<String, Object> extraConfig) {

    /** RocketMQ's defaults: scan every 10 s (Apache: 5 s), expire after 120 s of silence. */
    public static final long DEFAULT_SCAN_NOT_ACTIVE_BROKER_INTERVAL_MS = 10_000;
    public static final long DEFAULT_BROKER_CHANNEL_EXPIRED_TIME_MS = 120_000;

    public static NameServerSettings defaults(Path dir) {
        return new NameServerSettings(DEFAULT_SCAN_NOT_ACTIVE_BROKER_INTERVAL_MS,
            DEFAULT_BROKER_CHANNEL_EXPIRED_TIME_MS, dir.resolve("kvConfig.json"), "permissive", Map.of());
    }

    public NameServerSettings withExpiry(long scanIntervalMs, long expiredTimeMs) {
        return new NameServerSettings(scanIntervalMs, expiredTimeMs, kvConfigPath, tlsServerMode, extraConfig);
    }

    public NameServerSettings withKvConfigPath(Path path) {
        return new NameServerSettings(scanNotActiveBrokerIntervalMs, brokerChannelExpiredTimeMs, path, tlsServerMode,
            extraConfig);
    }

    public NameServerSettings withTlsServerMode(String mode) {
        return new NameServerSettings(scanNotActiveBrokerIntervalMs, brokerChannelExpiredTimeMs, kvConfigPath, mode,
            extraConfig);
    }

    public NameServerSettings withExtraConfig(Map<String, Object> keys) {
        return new NameServerSettings(scanNotActiveBrokerIntervalMs, brokerChannelExpiredTimeMs, kvConfigPath,
            tlsServerMode, Map.copyOf(keys));
    }
}
