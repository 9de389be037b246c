package io.vrmq.store;

import io.vrmq.store.checkpoint.Checkpoint;
import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.dispatch.Dispatcher;
import io.vrmq.store.flush.CommitLogFlusher;
import io.vrmq.store.flush.ForceTarget;
import io.vrmq.store.index.IndexService;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's own threads: {@code vrmq-store-flusher} (CommitLog forces, durability futures),
 * {@code vrmq-store-dispatcher} (ConsumeQueue and index entries) and two {@code vrmq-store-scheduler} threads
 * (ConsumeQueue/index forces with the checkpoint, retention, flush timeouts). Started once after recovery, stopped
 * once by {@link MessageStore#close}.
 */
final class StoreServices {
    private static final Logger log = LoggerFactory.getLogger(StoreServices.class);
    private static final int PAGE_BYTES = 4096;

    private final StoreConfig config;
    private final CommitLog commitLog;
    private final ConsumeQueueTable queues;
    private final IndexService index;
    private final Checkpoint checkpoint;
    private final Dispatcher dispatcher;
    private final CommitLogFlusher flusher;
    private final RetentionService retention;
    private final InstantSource clock;
    private ScheduledExecutorService scheduler;
    private Thread flusherThread;
    private Thread dispatcherThread;
    private long lastThoroughFlushMs;   // guarded by this

    StoreServices(StoreConfig config, StoreOptions options, CommitLog commitLog, ConsumeQueueTable queues,
                  IndexService index, Checkpoint checkpoint, Dispatcher dispatcher) {
        this.config = config;
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.checkpoint = checkpoint;
        this.dispatcher = dispatcher;
        this.clock = options.clock();
        this.flusher = new CommitLogFlusher(new CommitLogForceTarget(commitLog), config.flushIntervalCommitLogMs(),
                config.flushCommitLogLeastPages(), config.flushCommitLogThoroughIntervalMs(),
                config.syncFlushTimeoutMs());
        this.retention = new RetentionService(config, commitLog, queues, index, options.disk(), clock,
                options.zone());
    }

    CommitLogFlusher flusher() {
        return flusher;
    }

    RetentionService retention() {
        return retention;
    }

    void start() {
        retention.runOnce();
        flushLogics();
        flusherThread = startThread(flusher, "vrmq-store-flusher");
        dispatcherThread = startThread(dispatcher, "vrmq-store-dispatcher");
        scheduler = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "vrmq-store-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        long timeoutCheckMs = Math.max(1, config.syncFlushTimeoutMs() / 10);
        schedule(flusher::expireWaiters, timeoutCheckMs);
        schedule(this::flushLogicsRound, config.flushIntervalConsumeQueueMs());
        schedule(retention::runOnce, config.retentionCheckIntervalMs());
    }

    /** Dispatches and forces everything written, then records it in the checkpoint. */
    void stop() {
        scheduler.shutdown();
        dispatcher.shutdown();
        flusher.shutdown();
        join(dispatcherThread);
        join(flusherThread);
        try {
            if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
                log.warn("store scheduler still busy after 30 s at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        commitLog.flush();
        flushLogics();
    }

    /**
     * Runs {@code cut} (a truncation) so that no checkpoint round overlaps it, then writes a checkpoint: a round that
     * read the dispatched offset before the cut must not record it afterwards.
     */
    synchronized void cutThenCheckpoint(Runnable cut) {
        cut.run();
        flushLogics();
    }

    /** Forces every ConsumeQueue and the index, then records in the checkpoint how far they are complete. */
    private synchronized void flushLogics() {
        flushLogics(true);
    }

    /** The scheduled round: thorough once per flushConsumeQueueThoroughIntervalMs, else only busy queues. */
    private synchronized void flushLogicsRound() {
        flushLogics(clock.millis() - lastThoroughFlushMs >= config.flushConsumeQueueThoroughIntervalMs());
    }

    /**
     * Forces the ConsumeQueues (all of them when thorough, else those with at least flushConsumeQueueLeastPages
     * unforced pages) and the index, then writes the checkpoint: its dispatched offset is kept below the oldest
     * unforced entry of every queue left out, so recovery re-dispatches whatever a crash could take from them.
     */
    private void flushLogics(boolean thorough) {
        long dispatched = dispatcher.dispatchedOffset();   // read first: everything below it is in the files we force
        long leastBytes = (long) config.flushConsumeQueueLeastPages() * PAGE_BYTES;
        long complete = dispatched;
        for (ConsumeQueue queue : queues.all()) {
            if (thorough || queue.unflushedBytes() >= leastBytes) {
                queue.flush();
            } else {
                complete = Math.min(complete, queue.oldestUnflushedCommitLogOffset());
            }
        }
        index.flush();
        checkpoint.write(clock.millis(), commitLog.flushedOffset(), complete, dispatcher.confirmOffset());
        if (thorough) {
            lastThoroughFlushMs = clock.millis();
        }
    }

    private void schedule(Runnable task, long periodMs) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("store background task failed", e);
            }
        }, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    private static Thread startThread(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping " + thread.getName(), e);
        }
    }

    /** Adapts the CommitLog to the flusher. */
    private record CommitLogForceTarget(CommitLog commitLog) implements ForceTarget {
        @Override
        public long writtenOffset() {
            return commitLog.maxOffset();
        }

        @Override
        public long flushedOffset() {
            return commitLog.flushedOffset();
        }

        @Override
        public long force() {
            return commitLog.flush();
        }
    }
}
