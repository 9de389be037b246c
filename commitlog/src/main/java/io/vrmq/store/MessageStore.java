package io.vrmq.store;

import io.vrmq.store.checkpoint.Checkpoint;
import io.vrmq.store.checkpoint.StoreFiles;
import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.dispatch.Dispatcher;
import io.vrmq.store.flush.CommitLogFlusher;
import io.vrmq.store.flush.ForceTarget;
import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.index.IndexService;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import io.vrmq.store.queue.QueueOffsets;
import io.vrmq.store.segment.SegmentedLog;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store: CommitLog, ConsumeQueues, index, flush, recovery and retention behind one facade.
 *
 * <p>Threads:
 * <ul>
 * <li><b>Writer</b>: {@link #append} and {@link #appendBatch} must be called by one thread at a time (a single
 * worker, or any threads that hand off to one). Overlapping calls throw IllegalStateException; they are never
 * silently serialised. Appends never block on disk I/O except when a new segment file is created.</li>
 * <li><b>Readers</b>: every read method may be called from any thread, concurrently with appends. Reads touch mapped
 * memory (possibly a page fault): keep them off event loops.</li>
 * <li>Own threads: {@code vrmq-store-flusher} (forces; completes durability futures), {@code vrmq-store-dispatcher}
 * (ConsumeQueue and index entries, then the {@link DispatchListener}) and two {@code vrmq-store-scheduler} threads
 * (ConsumeQueue/index forces and the checkpoint, retention, flush timeouts).</li>
 * </ul>
 * Durability: see {@link FlushDiskType} and {@code CommitLogFlusher} for what a crash can lose.
 */
public final class MessageStore implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MessageStore.class);
    private static final int TRANSACTION_TYPE_MASK = 0x3 << 2;
    private static final int TRANSACTION_PREPARED = 0x1 << 2;
    private static final int TRANSACTION_ROLLBACK = 0x3 << 2;

    private final StoreConfig config;
    private final StoreOptions options;
    private final StoreFiles files;
    private final Checkpoint checkpoint;
    private final CommitLog commitLog;
    private final ConsumeQueueTable queues;
    private final IndexService index;
    private final QueueOffsets queueOffsets = new QueueOffsets();
    private final MessageEncoder encoder;
    private final QueueReader reader;
    private final ConcurrentSkipListMap<Long, DamagedRange> damaged = new ConcurrentSkipListMap<>();
    private final AtomicBoolean appending = new AtomicBoolean();
    private final EncodedMessage[] single = new EncodedMessage[1];
    private Dispatcher dispatcher;
    private CommitLogFlusher flusher;
    private RetentionService retention;
    private ScheduledExecutorService scheduler;
    private Thread flusherThread;
    private Thread dispatcherThread;
    private RecoveryReport recoveryReport;
    private long lastStoreTimestamp;
    private volatile boolean closed;

    private MessageStore(StoreConfig config, StoreOptions options, StoreFiles files, Checkpoint checkpoint,
                         CommitLog commitLog, ConsumeQueueTable queues, IndexService index) {
        this.config = config;
        this.options = options;
        this.files = files;
        this.checkpoint = checkpoint;
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.encoder = new MessageEncoder(config.maxMessageSize(), config.mappedFileSizeCommitLog(),
                commitLog.storeHost());
        this.reader = new QueueReader(commitLog, queues, config.maxFilterMessageCount());
    }

    /** Opens with the system clock, the real disk and RocketMQ's tagsCode rule. */
    public static MessageStore open(StoreConfig config) {
        return open(config, StoreOptions.defaults());
    }

    /**
     * Locks the directory, recovers (see {@link RecoveryReport}), creates the abort file and starts the store's
     * threads. Throws when the directory is locked by another store or a file cannot be mapped.
     */
    public static MessageStore open(StoreConfig config, StoreOptions options) {
        StoreFiles files = new StoreFiles(config.storePathRootDir());
        files.lock();
        try {
            boolean clean = !files.wasAborted();
            Checkpoint checkpoint = Checkpoint.open(files.checkpointFile());
            SegmentedLog segments = SegmentedLog.open(files.commitLogDirectory(), config.mappedFileSizeCommitLog());
            ConsumeQueueTable queues = ConsumeQueueTable.open(files.consumeQueueDirectory(),
                    config.mappedFileSizeConsumeQueue());
            IndexService index = IndexService.open(files.indexDirectory(), config.maxIndexHashSlots(),
                    config.maxIndexCount(), options.clock());
            StoreRecovery.Outcome outcome = StoreRecovery.recoverCommitLog(segments, checkpoint, clean, 0);
            CommitLog commitLog = new CommitLog(segments, HostAddress.of(config.storeHost()), outcome.endOffset(),
                    () -> options.disk().usableBytes(config.storePathRootDir()));
            MessageStore store = new MessageStore(config, options, files, checkpoint, commitLog, queues, index);
            store.recoverQueues(outcome, clean);
            store.start();
            return store;
        } catch (RuntimeException e) {
            files.unlock();
            throw e;
        }
    }

    // ---------------------------------------------------------------- writes (writer thread)

    /** Appends one message. Writer thread only (see class comment). */
    public AppendResult append(MessageToStore message) {
        enterWriter();
        try {
            AppendResult refusal = refusal();
            if (refusal != null) {
                return refusal;
            }
            EncodedMessage encoded = encoder.encode(message);
            single[0] = encoded;
            boolean takesOffset = takesQueueOffset(encoded.sysFlag());
            return write(single, 1, encoded.recordBytes(), message.topic(), message.queueId(), takesOffset);
        } catch (RejectedMessageException e) {
            return AppendResult.rejected(e.status(), e.getMessage());
        } finally {
            single[0] = null;
            appending.set(false);
        }
    }

    /**
     * Appends messages of one topic-queue as consecutive records with consecutive queue offsets, all in one
     * segment: every message is stored or none is. Writer thread only.
     */
    public AppendResult appendBatch(List<MessageToStore> messages) {
        enterWriter();
        try {
            AppendResult refusal = refusal();
            if (refusal != null) {
                return refusal;
            }
            EncodedMessage[] encoded = encodeBatch(messages);
            long totalBytes = 0;
            for (EncodedMessage message : encoded) {
                totalBytes += message.recordBytes();
            }
            if (totalBytes + 8 > config.mappedFileSizeCommitLog()) {
                return AppendResult.rejected(AppendStatus.MESSAGE_ILLEGAL, "batch of " + totalBytes
                        + " bytes does not fit a mappedFileSizeCommitLog=" + config.mappedFileSizeCommitLog() + " segment");
            }
            MessageToStore first = messages.get(0);
            return write(encoded, encoded.length, (int) totalBytes, first.topic(), first.queueId(), true);
        } catch (RejectedMessageException e) {
            return AppendResult.rejected(e.status(), e.getMessage());
        } finally {
            appending.set(false);
        }
    }

    private EncodedMessage[] encodeBatch(List<MessageToStore> messages) throws RejectedMessageException {
        if (messages.isEmpty()) {
            throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL, "empty batch");
        }
        MessageToStore first = messages.get(0);
        EncodedMessage[] encoded = new EncodedMessage[messages.size()];
        for (int i = 0; i < encoded.length; i++) {
            MessageToStore message = messages.get(i);
            if (!message.topic().equals(first.topic()) || message.queueId() != first.queueId()) {
                throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL, "batch mixes " + first.topic() + "-"
                        + first.queueId() + " with " + message.topic() + "-" + message.queueId());
            }
            encoded[i] = encoder.encode(message);
            if (!takesQueueOffset(encoded[i].sysFlag())) {
                throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL,
                        "prepared or rolled-back transaction messages cannot be batched");
            }
        }
        return encoded;
    }

    private AppendResult write(EncodedMessage[] messages, int count, int totalBytes, String topic, int queueId,
                               boolean takesOffset) {
        long queueOffset = takesOffset ? queueOffsets.take(topic, queueId, count) : 0;
        long storeTimestamp = nextStoreTimestamp();
        long commitLogOffset = commitLog.append(messages, count, totalBytes, queueOffset, storeTimestamp);
        if (commitLogOffset < 0) {
            if (takesOffset) {
                queueOffsets.giveBack(topic, queueId, count);
            }
            return AppendResult.rejected(AppendStatus.DISK_FULL, "no room for a new "
                    + config.mappedFileSizeCommitLog() + "-byte commit log segment under " + config.storePathRootDir());
        }
        dispatcher.wakeup();
        CompletableFuture<FlushStatus> durability = config.flushDiskType() == FlushDiskType.SYNC_FLUSH
                ? flusher.awaitDurable(commitLogOffset + totalBytes)
                : CompletableFuture.completedFuture(FlushStatus.FLUSH_OK);
        return new AppendResult(AppendStatus.PUT_OK, commitLogOffset, takesOffset ? queueOffset : 0, count,
                totalBytes, storeTimestamp, commitLog.storeHost(), durability, null);
    }

    /** Forces everything appended so far, whatever the flush mode; returns the durable offset. Any thread. */
    public long flush() {
        FlushStatus status = flusher.awaitDurable(commitLog.maxOffset()).join();
        if (status != FlushStatus.FLUSH_OK) {
            throw new IllegalStateException("flush did not complete within syncFlushTimeoutMs="
                    + config.syncFlushTimeoutMs());
        }
        return commitLog.flushedOffset();
    }

    // ---------------------------------------------------------------- reads (any thread)

    /**
     * Reads up to {@code maxCount} messages (and about {@code maxBytes}: the first message always fits) from
     * {@code queueOffset} whose tagsCode passes {@code filter}. Damaged records are skipped, never returned.
     */
    public GetMessageResult getMessages(String topic, int queueId, long queueOffset, int maxCount, int maxBytes,
                                        TagFilter filter) {
        return reader.getMessages(topic, queueId, queueOffset, maxCount, maxBytes, filter);
    }

    /** Min offset of the queue, 0 when it does not exist. */
    public long getMinOffsetInQueue(String topic, int queueId) {
        ConsumeQueue queue = queues.find(topic, queueId);
        return queue == null ? 0 : queue.minOffset();
    }

    /** Max offset of the queue (the next offset to be dispatched), 0 when it does not exist. */
    public long getMaxOffsetInQueue(String topic, int queueId) {
        ConsumeQueue queue = queues.find(topic, queueId);
        return queue == null ? 0 : queue.maxOffset();
    }

    /** Queue offset at {@code timestampMs} (see {@link TimeBoundary}); 0 when the queue does not exist. */
    public long getOffsetInQueueByTime(String topic, int queueId, long timestampMs, TimeBoundary boundary) {
        ConsumeQueue queue = queues.find(topic, queueId);
        return queue == null ? 0 : reader.offsetByTime(queue, timestampMs, boundary);
    }

    /** Store time of the queue's first kept message, -1 when none. */
    public long getEarliestMessageTime(String topic, int queueId) {
        ConsumeQueue queue = queues.find(topic, queueId);
        return queue == null ? -1 : reader.storeTime(queue, queue.minOffset());
    }

    /** Store time of the message at {@code queueOffset}, -1 when there is none. */
    public long getMessageStoreTimestamp(String topic, int queueId, long queueOffset) {
        ConsumeQueue queue = queues.find(topic, queueId);
        return queue == null ? -1 : reader.storeTime(queue, queueOffset);
    }

    /** Store time of the oldest record kept in the CommitLog, -1 when empty. */
    public long getEarliestMessageTime() {
        ByteBuffer first = commitLog.readRecord(commitLog.minOffset());
        return first == null ? -1 : commitLog.storeTimestampAt(commitLog.minOffset());
    }

    /** The record at {@code commitLogOffset} (checked), or null. See {@link FoundMessage} for slice lifetime. */
    public ByteBuffer lookMessageByOffset(long commitLogOffset) {
        return commitLog.readRecord(commitLogOffset);
    }

    /**
     * Messages of {@code topic} indexed under {@code key} (a KEYS token, the UNIQ_KEY, or "T#" + tag) stored within
     * [beginTimestampMs, endTimestampMs], newest first, at most {@code maxCount}. Each record is re-checked against
     * the key, so hash collisions and stale index entries are never returned.
     */
    public List<FoundMessage> queryMessage(String topic, String key, int maxCount, long beginTimestampMs,
                                           long endTimestampMs) {
        return new IndexQuery(commitLog, index).query(topic, key, maxCount, beginTimestampMs, endTimestampMs);
    }

    public long getCommitLogMinOffset() {
        return commitLog.minOffset();
    }

    public long getCommitLogMaxOffset() {
        return commitLog.maxOffset();
    }

    /** Queue ids with a ConsumeQueue for {@code topic}. */
    public java.util.Collection<Integer> getQueueIds(String topic) {
        return queues.queueIds(topic);
    }

    /** Deletes the topic's ConsumeQueues and offsets. Only for a topic that no longer receives appends. */
    public void deleteTopic(String topic) {
        queueOffsets.removeTopic(topic);
        queues.deleteTopic(topic);
    }

    public void setDispatchListener(DispatchListener listener) {
        dispatcher.setListener(listener);
    }

    public RecoveryReport recoveryReport() {
        return recoveryReport;
    }

    /** Damaged CommitLog ranges found so far (at recovery or while dispatching). */
    public List<DamagedRange> damagedRanges() {
        return List.copyOf(damaged.values());
    }

    public StoreStats stats() {
        int segmentCount = commitLog.segments().segments().length;
        return new StoreStats(commitLog.minOffset(), commitLog.maxOffset(), commitLog.flushedOffset(),
                dispatcher.dispatchedOffset(), (long) segmentCount * config.mappedFileSizeCommitLog(), segmentCount,
                retention.diskUsedPercent(), retention.isReadOnly(), flusher.forceCount(), flusher.lastForceMicros(),
                flusher.maxForceMicros());
    }

    /** Runs retention now (it also runs every retentionCheckIntervalMs); returns segments deleted. */
    public int runRetention() {
        return retention.runOnce();
    }

    /** True when the disk passed diskCriticalRatio and appends are refused. */
    public boolean isReadOnly() {
        return retention.isReadOnly();
    }

    public StoreConfig config() {
        return config;
    }

    /**
     * Clean shutdown: refuses new appends, dispatches and forces everything, writes the checkpoint, removes the
     * abort file and releases the directory lock. Call it after the writer stopped appending.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.shutdown();
        dispatcher.shutdown();
        flusher.shutdown();
        join(dispatcherThread);
        join(flusherThread);
        awaitScheduler();
        commitLog.flush();
        flushLogics();
        files.removeAbortFile();
        files.unlock();
        log.info("store {} closed at commit log offset {}", config.storePathRootDir(), commitLog.maxOffset());
    }

    // ---------------------------------------------------------------- lifecycle helpers

    private void recoverQueues(StoreRecovery.Outcome outcome, boolean clean) {
        long end = outcome.endOffset();
        for (ConsumeQueue queue : queues.all()) {
            queue.blankAfter(end);
        }
        boolean rebuild = queues.rebuildNeeded();
        long checkpointed = checkpoint.existed()
                ? Math.max(commitLog.minOffset(), Math.min(checkpoint.dispatchedFlushedOffset(), end))
                : commitLog.minOffset();
        if (!clean) {
            index.resumeAfter(checkpointed - 1);
        }
        long dispatchStart = rebuild ? commitLog.minOffset() : checkpointed;
        outcome.damaged().forEach(range -> damaged.put(range.commitLogOffset(), range));
        dispatcher = new Dispatcher(commitLog, queues, index, options.tagsCodes(),
                range -> damaged.putIfAbsent(range.commitLogOffset(), range), dispatchStart);
        long redispatched = dispatcher.dispatchUpTo(end);
        for (ConsumeQueue queue : queues.all()) {
            queue.deleteBelow(commitLog.minOffset());
            queueOffsets.seed(queue.topic(), queue.queueId(), queue.maxOffset());
        }
        recoveryReport = new RecoveryReport(clean, outcome.walkedFromOffset(), end, outcome.truncatedTail(),
                List.copyOf(damaged.values()), rebuild, redispatched);
        log.info("store recovered: {}", recoveryReport);
    }

    private void start() {
        flusher = new CommitLogFlusher(new CommitLogForceTarget(commitLog), config.flushIntervalCommitLogMs(),
                config.flushCommitLogLeastPages(), config.flushCommitLogThoroughIntervalMs(),
                config.syncFlushTimeoutMs());
        retention = new RetentionService(config, commitLog, queues, index, options.disk(), options.clock(),
                options.zone());
        retention.runOnce();
        flushLogics();
        files.createAbortFile();
        flusherThread = startThread(flusher, "vrmq-store-flusher");
        dispatcherThread = startThread(dispatcher, "vrmq-store-dispatcher");
        scheduler = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "vrmq-store-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        long timeoutCheckMs = Math.max(1, config.syncFlushTimeoutMs() / 10);
        scheduler.scheduleWithFixedDelay(guarded(flusher::expireWaiters), timeoutCheckMs, timeoutCheckMs,
                TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(guarded(this::flushLogics), config.flushIntervalConsumeQueueMs(),
                config.flushIntervalConsumeQueueMs(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(guarded(retention::runOnce), config.retentionCheckIntervalMs(),
                config.retentionCheckIntervalMs(), TimeUnit.MILLISECONDS);
    }

    /** Forces ConsumeQueues and index, then records in the checkpoint how far they are complete. */
    private void flushLogics() {
        long dispatched = dispatcher.dispatchedOffset();   // read first: everything below it is in the files we force
        for (ConsumeQueue queue : queues.all()) {
            queue.flush();
        }
        index.flush();
        checkpoint.write(options.clock().millis(), commitLog.flushedOffset(), dispatched);
    }

    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("store background task failed", e);
            }
        };
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

    private void awaitScheduler() {
        try {
            if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
                log.warn("store scheduler still busy after 30 s at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void enterWriter() {
        if (!appending.compareAndSet(false, true)) {
            throw new IllegalStateException("concurrent append on " + Thread.currentThread().getName()
                    + ": MessageStore has a single writer; hand appends to one thread");
        }
    }

    private AppendResult refusal() {
        if (closed) {
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, "store is closed");
        }
        if (retention.isReadOnly()) {
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, "store is read-only: disk "
                    + Math.round(retention.diskUsedPercent()) + "% used >= diskCriticalRatio "
                    + config.diskCriticalRatio() + "%");
        }
        return null;
    }

    /** Store times never go backwards along the log, so time search stays a binary search. */
    private long nextStoreTimestamp() {
        long now = options.clock().millis();
        if (now < lastStoreTimestamp) {
            now = lastStoreTimestamp;
        }
        lastStoreTimestamp = now;
        return now;
    }

    private static boolean takesQueueOffset(int sysFlag) {
        int type = sysFlag & TRANSACTION_TYPE_MASK;
        return type != TRANSACTION_PREPARED && type != TRANSACTION_ROLLBACK;
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
