package io.vrmq.broker.ha;

import io.vertx.core.Future;

import java.util.Map;

/**
 * This broker's part in master/slave replication, as the processors and the admin API see it. A master streams its
 * CommitLog to slaves ({@link MasterReplication}); a slave follows one master and copies its metadata
 * ({@link SlaveReplication}).
 */
public interface Replication {
    boolean isSlave();

    /** On a slave: the link to its master is up, so consumers belong on the master. Always false on a master. */
    boolean isMasterAlive();

    /** SYNC_MASTER: completes when a slave has everything below {@code endOffset}. Call on the broker's context. */
    Future<SlaveAck> awaitSlave(long endOffset);

    /**
     * Controller mode: the SyncStateSet has minInSyncReplicas members, so a SYNC_MASTER may store a send (RocketMQ
     * refuses before storing otherwise). Always true in the classic modes.
     */
    default boolean hasEnoughInSyncReplicas() {
        return true;
    }

    /** The NameServer named this group's master (a slave's registration answer); null values when none. */
    void masterLearned(String masterAddr, String masterHaAddr);

    /** The master's broker address as last learned, or null (masters: null). */
    String masterAddr();

    /** For the admin API: role, offsets, and the slaves (master) or the master link (slave). Broker's context. */
    Map<String, Object> status();

    Future<Void> stop();
}
