package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.json.JsonObject;

/**
 * Controller-mode replication settings (RocketMQ's MessageStoreConfig names and defaults). The HA port, intervals,
 * batch size and slaveTimeout come from {@link io.vrmq.broker.ha.HaConfig} as in classic replication.
 *
 * @param allAckInSyncStateSet       a send waits until every SyncStateSet member has it, and the confirm offset (what
 *                                   consumers may see) is the lowest acknowledgement of the set; false: the confirm
 *                                   offset is the master's max offset and {@code inSyncReplicas} acks are awaited
 * @param inSyncReplicas             without allAck: replicas (master included) that must have a message before the
 *                                   send is answered; 1 = do not wait
 * @param minInSyncReplicas          a send is refused (IN_SYNC_REPLICAS_NOT_ENOUGH) while the SyncStateSet is smaller
 * @param haMaxTimeSlaveNotCatchupMs a slave that has not caught up for this long leaves the SyncStateSet
 * @param syncFromLastFile           an empty slave asks to start at the master's last CommitLog file, not its first
 * @param asyncLearner               this slave follows without ever joining the SyncStateSet
 * @param readUnCommitted            consumers may see records beyond the confirm offset (no dispatch gate)
 */
public record AutoSwitchConfig(boolean allAckInSyncStateSet, int inSyncReplicas, int minInSyncReplicas,
                               long haMaxTimeSlaveNotCatchupMs, boolean syncFromLastFile, boolean asyncLearner,
                               boolean readUnCommitted) {

    public AutoSwitchConfig {
        require(inSyncReplicas >= 1, "inSyncReplicas", inSyncReplicas);
        require(minInSyncReplicas >= 1, "minInSyncReplicas", minInSyncReplicas);
        require(haMaxTimeSlaveNotCatchupMs > 0, "haMaxTimeSlaveNotCatchup", haMaxTimeSlaveNotCatchupMs);
    }

    public static AutoSwitchConfig from(JsonObject json) {
        return new AutoSwitchConfig(json.getBoolean("allAckInSyncStateSet", false),
            json.getInteger("inSyncReplicas", 1), json.getInteger("minInSyncReplicas", 1),
            json.getLong("haMaxTimeSlaveNotCatchup", 15_000L), json.getBoolean("syncFromLastFile", false),
            json.getBoolean("asyncLearner", false), json.getBoolean("readUnCommitted", false));
    }

    /** Whether the store keeps ConsumeQueues below the confirm offset (RocketMQ's reput end) in this role. */
    boolean gatesDispatch(boolean isMaster) {
        return !readUnCommitted && (!isMaster || allAckInSyncStateSet);
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
