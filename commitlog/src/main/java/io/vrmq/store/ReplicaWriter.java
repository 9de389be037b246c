package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.commitlog.ReplicaLog;
import io.vrmq.store.dispatch.Dispatcher;
import java.nio.ByteBuffer;

/**
 * The replication path: a master's CommitLog bytes into this store through {@link ReplicaLog}, then a wakeup for the
 * dispatcher, which builds ConsumeQueue and index entries from the records as it does after recovery (queue offsets
 * come from the records). The flusher forces replicated bytes like appended ones; there is no durability future.
 *
 * <p>Single writer: shares the {@link WriteGate} with {@link StoreWriter}, so replication and appends never overlap,
 * and a store that took its own appends since it was opened refuses replicated bytes (and the other way round).
 */
final class ReplicaWriter {
    private final StoreConfig config;
    private final CommitLog commitLog;
    private final ReplicaLog replicaLog;
    private final Dispatcher dispatcher;
    private final RetentionService retention;
    private final WriteGate gate;

    ReplicaWriter(StoreConfig config, CommitLog commitLog, Dispatcher dispatcher, RetentionService retention,
                  WriteGate gate) {
        this.config = config;
        this.commitLog = commitLog;
        this.replicaLog = new ReplicaLog(commitLog);
        this.dispatcher = dispatcher;
        this.retention = retention;
        this.gate = gate;
    }

    long writeOffset() {
        return replicaLog.writeOffset();
    }

    /** Drops a partly received record; the next bytes go at the max offset. Inside the writer gate only. */
    void reset() {
        replicaLog.reset();
    }

    long appendReplicated(long offset, ByteBuffer bytes) {
        gate.enter();
        try {
            refuseUnlessReplicating();
            gate.claim(WriteGate.Writer.REPLICATION);
            long publishedBefore = commitLog.maxOffset();
            try {
                return replicaLog.write(offset, bytes);
            } finally {
                if (commitLog.maxOffset() != publishedBefore) {
                    dispatcher.wakeup();   // also when a bad record ended the chunk: the good ones before it count
                }
            }
        } finally {
            gate.exit();
        }
    }

    private void refuseUnlessReplicating() {
        if (gate.isStopped()) {
            throw new ReplicationException("store is closed");
        }
        if (gate.writer() == WriteGate.Writer.OWN_APPENDS) {
            throw new ReplicationException("store " + config.storePathRootDir() + " took its own appends since it "
                    + "was opened: it is a master and cannot also take a master's bytes");
        }
        if (retention.isReadOnly()) {
            throw new ReplicationException("store is read-only: disk " + Math.round(retention.diskUsedPercent())
                    + "% used >= diskCriticalRatio " + config.diskCriticalRatio() + "%");
        }
    }
}
