package io.vrmq.broker.ha;

import io.vertx.core.json.JsonObject;

/**
 * Master/slave replication settings, under RocketMQ's names (defaults in {@code broker-defaults.json}).
 *
 * @param haListenPort                where a master accepts slaves; 0 means listenPort + 1, as RocketMQ's broker start
 *                                    does (a free port when listenPort is 0 too)
 * @param haMasterAddress             "host:port" of the master's HA port; blank means learn it from the NameServers
 * @param haSendHeartbeatIntervalMs   an idle master sends an empty frame, an idle slave its offset, this often
 * @param haHousekeepingIntervalMs    a link silent this long is closed (and, on a slave, reconnected)
 * @param haTransferBatchSize         most CommitLog bytes per frame
 * @param haMaxGapNotInSync           SYNC_MASTER: a slave further behind than this many bytes does not count
 * @param slaveTimeoutMs              SYNC_MASTER: how long a send waits for a slave's acknowledgement
 * @param slaveReadEnable             whether consumers may pull from a slave (RocketMQ's default: no)
 * @param slaveSyncMetadataIntervalMs how often a slave copies topics, groups and offsets from its master
 */
public record HaConfig(int haListenPort, String haMasterAddress, long haSendHeartbeatIntervalMs,
                       long haHousekeepingIntervalMs, int haTransferBatchSize, long haMaxGapNotInSync,
                       long slaveTimeoutMs, boolean slaveReadEnable, long slaveSyncMetadataIntervalMs) {

    public HaConfig {
        require(haListenPort >= 0 && haListenPort <= 65535, "haListenPort", haListenPort);
        require(haMasterAddress.isBlank() || haMasterAddress.lastIndexOf(':') > 0, "haMasterAddress (host:port)",
            haMasterAddress);
        require(haSendHeartbeatIntervalMs > 0, "haSendHeartbeatInterval", haSendHeartbeatIntervalMs);
        require(haHousekeepingIntervalMs > haSendHeartbeatIntervalMs,
            "haHousekeepingInterval (must exceed haSendHeartbeatInterval)", haHousekeepingIntervalMs);
        require(haTransferBatchSize >= 1024 && haTransferBatchSize <= 4 * 1024 * 1024,
            "haTransferBatchSize (1 KiB .. 4 MiB)", haTransferBatchSize);
        require(haMaxGapNotInSync > 0, "haMaxGapNotInSync", haMaxGapNotInSync);
        require(slaveTimeoutMs > 0, "slaveTimeout", slaveTimeoutMs);
        require(slaveSyncMetadataIntervalMs >= 100, "slaveSyncMetadataInterval", slaveSyncMetadataIntervalMs);
    }

    public static HaConfig from(JsonObject json) {
        return new HaConfig(json.getInteger("haListenPort"), json.getString("haMasterAddress").trim(),
            json.getLong("haSendHeartbeatInterval"), json.getLong("haHousekeepingInterval"),
            json.getInteger("haTransferBatchSize"), json.getLong("haMaxGapNotInSync"), json.getLong("slaveTimeout"),
            json.getBoolean("slaveReadEnable"), json.getLong("slaveSyncMetadataInterval"));
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
