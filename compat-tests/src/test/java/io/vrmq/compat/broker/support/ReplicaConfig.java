package io.vrmq.compat.broker.support;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The broker.json keys (RocketMQ's names) that make one of our test brokers a master or a slave, for
 * {@link VrmqBrokers#start(BrokerSettings, Map)}. A master and its slaves share brokerClusterName and brokerName
 * (from {@link BrokerSettings}) and differ in brokerId and brokerRole. Immutable; build with the {@code with}
 * methods.
 */
public final class ReplicaConfig {

    public static final String ASYNC_MASTER = "ASYNC_MASTER";
    public static final String SYNC_MASTER = "SYNC_MASTER";
    public static final String SLAVE = "SLAVE";
    public static final long MASTER_ID = 0;
    public static final long FIRST_SLAVE_ID = 1;
    /** Segments small enough that a test's few MiB roll them; the largest message must fit one. */
    public static final int SMALL_COMMIT_LOG_FILE_BYTES = 1024 * 1024;
    public static final int SMALL_MAX_MESSAGE_BYTES = 64 * 1024;
    /** The default (10 s) would make a test wait that long for a slave to learn of a new topic. */
    public static final long FAST_METADATA_SYNC_INTERVAL_MS = 1_000;

    private final Map<String, Object> keys;

    private ReplicaConfig(Map<String, Object> keys) {
        this.keys = keys;
    }

    /** A master: brokerId 0 and {@code brokerRole} ASYNC_MASTER or SYNC_MASTER. */
    public static ReplicaConfig master(String brokerRole) {
        return new ReplicaConfig(Map.of("brokerId", MASTER_ID, "brokerRole", brokerRole));
    }

    /** A slave with {@code brokerId} (1 or more) that learns its master's addresses from the NameServer. */
    public static ReplicaConfig slave(long brokerId) {
        return new ReplicaConfig(Map.of("brokerId", brokerId, "brokerRole", SLAVE));
    }

    /** Follows the master at {@code haAddress} ("host:port" of its HA port) instead of asking the NameServer. */
    public ReplicaConfig withHaMasterAddress(String haAddress) {
        return with("haMasterAddress", haAddress);
    }

    /** A slave serves pulls (while its master lives it still points consumers at the master). */
    public ReplicaConfig withSlaveReadEnable() {
        return with("slaveReadEnable", true);
    }

    /** A slave copies topics, groups and offsets every {@link #FAST_METADATA_SYNC_INTERVAL_MS}. */
    public ReplicaConfig withFastMetadataSync() {
        return with("slaveSyncMetadataInterval", FAST_METADATA_SYNC_INTERVAL_MS);
    }

    /** 1 MiB CommitLog segments (and 64 KiB messages at most); a master and its slave must agree on the size. */
    public ReplicaConfig withSmallSegments() {
        return with("mappedFileSizeCommitLog", SMALL_COMMIT_LOG_FILE_BYTES)
            .with("maxMessageSize", SMALL_MAX_MESSAGE_BYTES);
    }

    public ReplicaConfig with(String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(keys);
        copy.put(key, value);
        return new ReplicaConfig(copy);
    }

    /** The keys, for {@link VrmqBrokers#start(BrokerSettings, Map)}. */
    public Map<String, Object> keys() {
        return Map.copyOf(keys);
    }
}
