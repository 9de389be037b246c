package io.vrmq.compat.broker.support;

import java.nio.file.Path;

/**
 * What a test sets on the broker it starts, in RocketMQ's config names and units; everything else is the broker's
 * default. Ports are not here: {@link VrmqBroker} picks a free listen port once and keeps it across restarts.
 *
 * @param brokerClusterName         cluster the broker registers under
 * @param brokerName                its name in routes
 * @param namesrvAddr               "a" or "a;b"
 * @param storePathRootDir          temp dir for the store, config and offsets; kept across restarts
 * @param flushDiskType             ASYNC_FLUSH or SYNC_FLUSH
 * @param messageDelayLevel         the 18 delay levels, e.g. {@link #SHORT_DELAY_LEVELS}
 * @param registerNameServerPeriodMs how often the broker re-registers with its NameServers
 */
public record BrokerSettings(String brokerClusterName, String brokerName, String namesrvAddr, Path storePathRootDir,
                             String flushDiskType, String messageDelayLevel, long registerNameServerPeriodMs) {

    /** Level n waits n seconds: retry (level 3 + reconsumeTimes) and delay tests take seconds, not minutes. */
    public static final String SHORT_DELAY_LEVELS = "1s 2s 3s 4s 5s 6s 7s 8s 9s 10s 11s 12s 13s 14s 15s 16s 17s 18s";
    /** RocketMQ's default levels. */
    public static final String DEFAULT_DELAY_LEVELS = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";
    /** Small enough for a temp dir, large enough for a 4 MiB message (maxMessageSize stays at its default). */
    public static final int COMMIT_LOG_FILE_BYTES = 16 * 1024 * 1024;
    public static final int MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
    public static final String CLUSTER = "VrmqCompatCluster";

    /** ASYNC_FLUSH, default delay levels, re-registration every 10 s. */
    public static BrokerSettings defaults(String brokerName, String namesrvAddr, Path storePathRootDir) {
        return new BrokerSettings(CLUSTER, brokerName, namesrvAddr, storePathRootDir, "ASYNC_FLUSH",
            DEFAULT_DELAY_LEVELS, 10_000);
    }

    public BrokerSettings withFlushDiskType(String type) {
        return new BrokerSettings(brokerClusterName, brokerName, namesrvAddr, storePathRootDir, type,
            messageDelayLevel, registerNameServerPeriodMs);
    }

    public BrokerSettings withMessageDelayLevel(String levels) {
        return new BrokerSettings(brokerClusterName, brokerName, namesrvAddr, storePathRootDir, flushDiskType,
            levels, registerNameServerPeriodMs);
    }
}
