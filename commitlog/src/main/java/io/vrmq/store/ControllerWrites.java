package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.dispatch.Dispatcher;
import io.vrmq.store.index.IndexService;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import io.vrmq.store.queue.QueueOffsets;
import io.vrmq.store.queue.ReservedOffsets;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer-thread operations controller mode adds to the store (see {@link MessageStore#truncateTo},
 * {@link MessageStore#switchToReplica}, {@link MessageStore#switchToOwnAppends}). Each passes the single-writer
 * {@link WriteGate} like an append, so none overlaps a write.
 *
 * <p>Lock order in a truncation: retention run, then the checkpoint round, then the dispatcher's turn; nothing takes
 * them the other way round.
 */
final class ControllerWrites {
    /** How long a switch to own appends waits for the dispatcher; the queue offsets are right either way. */
    static final long DISPATCH_CATCH_UP_WAIT_MS = 10_000;
    private static final Logger log = LoggerFactory.getLogger(ControllerWrites.class);

    private final StoreConfig config;
    private final CommitLog commitLog;
    private final ConsumeQueueTable queues;
    private final IndexService index;
    private final Dispatcher dispatcher;
    private final StoreServices services;
    private final WriteGate gate;
    private final ReplicaWriter replicaWriter;
    private final QueueOffsets queueOffsets;
    private final ReservedOffsets reservedOffsets;
    private final ConcurrentSkipListMap<Long, DamagedRange> damaged;

    ControllerWrites(StoreConfig config, CommitLog commitLog, ConsumeQueueTable queues, IndexService index,
                     Dispatcher dispatcher, StoreServices services, WriteGate gate, ReplicaWriter replicaWriter,
                     QueueOffsets queueOffsets, ReservedOffsets reservedOffsets,
                     ConcurrentSkipListMap<Long, DamagedRange> damaged) {
        this.config = config;
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.dispatcher = dispatcher;
        this.services = services;
        this.gate = gate;
        this.replicaWriter = replicaWriter;
        this.queueOffsets = queueOffsets;
        this.reservedOffsets = reservedOffsets;
        this.damaged = damaged;
    }

    long truncateTo(long offset) {
        gate.enter();
        try {
            requireOpen();
            if (offset >= commitLog.maxOffset()) {
                return commitLog.maxOffset();
            }
            services.retention().excluding(() -> services.cutThenCheckpoint(() -> cut(offset)));
            return commitLog.maxOffset();
        } finally {
            gate.exit();
        }
    }

    void switchToReplica() {
        gate.enter();
        try {
            requireOpen();
            replicaWriter.reset();
            reservedOffsets.forgetAll();   // the master assigns queue offsets now; a crash must not skip them
            gate.claim(WriteGate.Writer.REPLICATION);
            log.info("store {} takes replicated bytes from offset {}", config.storePathRootDir(),
                    commitLog.maxOffset());
        } finally {
            gate.exit();
        }
    }

    void switchToOwnAppends() {
        gate.enter();
        try {
            requireOpen();
            awaitDispatchCaughtUp();
            replicaWriter.reset();
            long dispatched = dispatcher.dispatchedOffset();   // before the ConsumeQueues are read
            QueueOffsetsRebuild.rebuild(commitLog, queues, dispatched, queueOffsets);
            QueueRecovery.skipReservedOffsets(queues, queueOffsets, reservedOffsets, false);   // bounds of a crash
            gate.claim(WriteGate.Writer.OWN_APPENDS);
            log.info("store {} takes its own appends from offset {} (dispatched to {})", config.storePathRootDir(),
                    commitLog.maxOffset(), dispatched);
        } finally {
            gate.exit();
        }
    }

    private void requireOpen() {
        if (gate.isStopped()) {
            throw new IllegalStateException("store " + config.storePathRootDir() + " is closed");
        }
    }

    /** Retention and checkpoint rounds are held off by the caller; the dispatcher is held off inside. */
    private void cut(long offset) {
        StoreTruncation.requireBoundary(commitLog, offset);
        long maxBefore = commitLog.maxOffset();
        dispatcher.rewindTo(offset, () -> {
            commitLog.truncateTo(offset);
            long entriesRemoved = 0;
            for (ConsumeQueue queue : queues.all()) {
                entriesRemoved += queue.truncateTo(offset);
            }
            index.resumeAfter(offset - 1);
            damaged.tailMap(offset, true).clear();
            log.warn("commit log of {} truncated from {} to {} ({} bytes, {} consume queue entries dropped)",
                    config.storePathRootDir(), maxBefore, offset, maxBefore - offset, entriesRemoved);
        });
        replicaWriter.reset();
        if (dispatcher.confirmOffset() > offset) {
            dispatcher.setConfirmOffset(offset);
        }
        QueueOffsetsRebuild.rebuild(commitLog, queues, dispatcher.dispatchedOffset(), queueOffsets);
        reservedOffsets.forgetAll();   // offsets above the kept records are free again (see ConsumeQueue.truncateTo)
    }

    /** Best effort: the rebuild after it counts undispatched records anyway; waiting lets consumers see them. */
    private void awaitDispatchCaughtUp() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DISPATCH_CATCH_UP_WAIT_MS);
        while (dispatcher.dispatchedOffset() < dispatcher.limit()) {
            if (System.nanoTime() - deadline > 0) {
                log.warn("dispatch still at {} below its limit {} after {} ms; switching anyway",
                        dispatcher.dispatchedOffset(), dispatcher.limit(), DISPATCH_CATCH_UP_WAIT_MS);
                return;
            }
            dispatcher.wakeup();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
