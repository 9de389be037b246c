package io.vrmq.store;

import io.vrmq.store.checkpoint.Checkpoint;
import io.vrmq.store.checkpoint.StoreFiles;
import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.dispatch.Dispatcher;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.index.IndexService;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import io.vrmq.store.queue.ReservedOffsets;
import io.vrmq.store.segment.SegmentedLog;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store: CommitLog, ConsumeQueues, index, flush, recovery and retention behind one facade.
 *
 * <p>Threads:
 * <ul>
 * <li><b>Writer</b>: {@link #append}, {@link #appendBatch} and (on a replica) {@link #appendReplicated} must be
 * called by one thread at a time (a single worker, or any threads that hand off to one). Overlapping calls throw
 * IllegalStateException; they are never silently serialised. Writes never block on disk I/O except when a new
 * segment file is created.</li>
 * <li><b>Readers</b>: every read method may be called from any thread, concurrently with appends. Reads touch mapped
 * memory (possibly a page fault): keep them off event loops.</li>
 * <li>Own threads: {@code vrmq-store-flusher} (forces; completes durability futures), {@code vrmq-store-dispatcher}
 * (ConsumeQueue and index entries, then the {@link DispatchListener}), two {@code vrmq-store-scheduler} threads
 * (ConsumeQueue/index forces and the checkpoint, retention, flush timeouts) and, under ASYNC_FLUSH with
 * {@code renewReservedOffsetsAhead}, {@code vrmq-store-reserver} (reserved queue-offset bounds renewed ahead of the
 * writer).</li>
 * </ul>
 * Durability: see {@link FlushDiskType} and {@code CommitLogFlusher} for what a crash can lose.
 *
 * <p>Replication (RocketMQ's HA): a master's broker streams {@link #readCommitLog} chunks; a replica's broker writes
 * them with {@link #appendReplicated}. An open store takes either its own appends or replicated bytes, whichever
 * comes first; reopening forgets it.
 *
 * <p>Controller mode (RocketMQ's AutoSwitchHAService) adds: explicit switches between the two kinds of writer when
 * the broker's role changes ({@link #switchToReplica}, {@link #switchToOwnAppends}); {@link #truncateTo} to cut the
 * log back to the point a new master agrees with; and the confirm offset, below which every in-sync replica has
 * every byte, with a gate that keeps ConsumeQueues (what consumers see) below it
 * ({@link #setDispatchGatedByConfirmOffset}). The confirm offset is kept in the checkpoint.
 */
public final class MessageStore implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MessageStore.class);

    private final StoreConfig config;
    private final StoreFiles files;
    private final CommitLog commitLog;
    private final ConsumeQueueTable queues;
    private final IndexService index;
    private final QueueReader reader;
    private final Dispatcher dispatcher;
    private final StoreServices services;
    private final WriteGate gate;
    private final StoreWriter writer;
    private final ReplicaWriter replicaWriter;
    private final PageCacheEstimate pageCache;
    private final ConcurrentSkipListMap<Long, DamagedRange> damaged;
    private final ControllerWrites controllerWrites;
    private final RecoveryReport recoveryReport;
    private final ReservedOffsets reservedOffsets;
    private volatile boolean closed;

    private MessageStore(StoreConfig config, StoreOptions options, StoreFiles files, Checkpoint checkpoint,
                         CommitLog commitLog, ConsumeQueueTable queues, IndexService index,
                         ReservedOffsets reservedOffsets, QueueRecovery.Result recovered) {
        this.config = config;
        this.files = files;
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.pageCache = new PageCacheEstimate(options.physicalMemoryBytes(), config.accessMessageInMemoryMaxRatio());
        this.reader = new QueueReader(commitLog, queues, config.maxFilterMessageCount(), pageCache);
        this.dispatcher = recovered.dispatcher();
        this.damaged = recovered.damaged();
        this.recoveryReport = recovered.report();
        this.services = new StoreServices(config, options, commitLog, queues, index, checkpoint, dispatcher);
        this.gate = new WriteGate();
        this.writer = new StoreWriter(config, commitLog, recovered.queueOffsets(), reservedOffsets, dispatcher,
                services.flusher(), services.retention(), options.clock(), gate);
        this.replicaWriter = new ReplicaWriter(config, commitLog, dispatcher, services.retention(), gate);
        this.controllerWrites = new ControllerWrites(config, commitLog, queues, index, dispatcher, services, gate,
                replicaWriter, recovered.queueOffsets(), reservedOffsets, damaged);
        this.reservedOffsets = reservedOffsets;
    }

    /** Opens with the system clock, the real disk and RocketMQ's tagsCode rule. */
    public static MessageStore open(StoreConfig config) {
        return open(config, StoreOptions.defaults());
    }

    /**
     * Locks the directory, creates the abort file, recovers (see {@link RecoveryReport}) and starts the store's
     * threads. The abort file comes first so that an open that does not complete (a crash, a kill, a cancellation,
     * a failure) is always followed by a full crash recovery, never trusted as a clean shutdown. Throws when the
     * directory is locked by another store or a file cannot be mapped, and {@link java.util.concurrent
     * .CancellationException} once {@link StoreOptions#isOpenCancelled()} says so during recovery; in every case the
     * lock is released.
     */
    public static MessageStore open(StoreConfig config, StoreOptions options) {
        StoreFiles files = new StoreFiles(config.storePathRootDir());
        files.lock();
        try {
            boolean clean = !files.wasAborted();
            files.createAbortFile();
            OpenCancellation cancellation = new OpenCancellation(options.isOpenCancelled());
            Checkpoint checkpoint = Checkpoint.open(files.checkpointFile());
            ReservedOffsets reservedOffsets = ReservedOffsets.open(files.reservedOffsetsFile(), clean,
                    config.reservedOffsetBlockMax(), config.reservedOffsetFileMaxBytes(), options.clock(),
                    config.renewReservedOffsetsAhead());
            SegmentedLog segments = SegmentedLog.open(files.commitLogDirectory(), config.mappedFileSizeCommitLog());
            ConsumeQueueTable queues = ConsumeQueueTable.open(files.consumeQueueDirectory(),
                    config.mappedFileSizeConsumeQueue());
            IndexService index = IndexService.open(files.indexDirectory(), config.maxIndexHashSlots(),
                    config.maxIndexCount(), options.clock());
            log.info("recovering store {} after a {}: {} commit log segments", config.storePathRootDir(),
                    clean ? "clean shutdown" : "crash", segments.segments().length);
            StoreRecovery.Outcome outcome = StoreRecovery.recoverCommitLog(segments, checkpoint, clean, 0,
                    cancellation);
            CommitLog commitLog = new CommitLog(segments, HostAddress.of(config.storeHost()), outcome.endOffset(),
                    () -> options.disk().usableBytes(config.storePathRootDir()));
            QueueRecovery.Result recovered = QueueRecovery.recover(commitLog, queues, index, checkpoint, outcome, clean,
                    options.tagsCodes(), options.dispatchGatedByConfirmOffset(), reservedOffsets, cancellation);
            cancellation.check("starting the store threads", outcome.endOffset());
            MessageStore store = new MessageStore(config, options, files, checkpoint, commitLog, queues, index,
                    reservedOffsets, recovered);
            store.services.start();
            return store;
        } catch (RuntimeException e) {
            files.unlock();
            throw e;
        }
    }

    // ---------------------------------------------------------------- writes (writer thread)

    /** Appends one message. Writer thread only (see class comment). */
    public AppendResult append(MessageToStore message) {
        return writer.append(message);
    }

    /**
     * Appends each message as its own record, as {@link #append} would one after another, in one writer turn: the
     * dispatcher is woken once and, under SYNC_FLUSH, one flush waiter covers the turn, so every stored message's
     * durability future completes after the force that covers the turn's last record (the flusher is signalled at
     * once; nothing waits for a timer). Results in list order; a refused message does not affect the others.
     * Writer thread only.
     */
    public List<AppendResult> appendEach(List<MessageToStore> messages) {
        return writer.appendEach(messages);
    }

    /**
     * Appends messages of one topic-queue as consecutive records with consecutive queue offsets, all in one
     * segment: every message is stored or none is. Writer thread only.
     */
    public AppendResult appendBatch(List<MessageToStore> messages) {
        return writer.appendBatch(messages);
    }

    /**
     * Tells the store which queues exist ({@code queueCounts}: topic to queue count, queues 0 .. count - 1), before
     * their first messages: the broker's topic table at start, and a topic when it is created or its queue count
     * grows. Under ASYNC_FLUSH their first reserved bounds are then written together (one forced write for all,
     * at the first write since the open, or ahead on {@code vrmq-store-reserver}) instead of one forced write at
     * each queue's first append. A queue the store knows keeps its next offset (never lowered); at most
     * {@code reservedOffsetSeedMaxQueues} queues are known in all. Ignored on a replica. Returns the queues made
     * known. Writer thread only, like append.
     */
    public int declareQueues(Map<String, Integer> queueCounts) {
        return writer.declareQueues(queueCounts);
    }

    /**
     * Writes CommitLog bytes received from a master at {@code offset} ({@code bytes} from position to limit; its
     * position is left alone) and returns the new published max offset. Writer thread only, like append.
     * <ul>
     * <li>{@code offset} must be {@link #replicaWriteOffset()}, or {@link #getCommitLogMaxOffset()} to resend after a
     * reconnect (the partly received record, if any, is dropped). An empty store starts at any multiple of
     * {@code mappedFileSizeCommitLog}: min and max offset become that offset.</li>
     * <li>A chunk must not cross a segment end. The max offset advances only over whole records that pass the record
     * checks (size, magic, physical offset, body CRC) and over a segment's filler once its bytes reach the segment
     * end; the dispatcher then builds ConsumeQueue and index entries from them.</li>
     * <li>From the first call on, this open store refuses {@link #append} and {@link #appendBatch}; a store that took
     * its own appends since it was opened refuses this.</li>
     * </ul>
     * Throws {@link ReplicationException} when the bytes cannot be accepted (wrong offset, a record failing its
     * check, a chunk crossing a segment end, closed, read-only, disk full, not a replica): the whole good records
     * before the fault stay published, the rest is dropped; resend from {@link #getCommitLogMaxOffset()}.
     */
    public long appendReplicated(long offset, ByteBuffer bytes) {
        return replicaWriter.appendReplicated(offset, bytes);
    }

    // ---------------------------------------------------------------- controller mode (writer thread unless noted)

    /**
     * Drops every CommitLog byte at or after {@code offset} and everything built from it, and returns the new max
     * offset ({@code offset}). Writer thread (it takes the single-writer gate).
     * <ul>
     * <li>The segment holding {@code offset} is zeroed from there, later segments are deleted; readers stop below
     * {@code offset} first.</li>
     * <li>ConsumeQueue entries of records at or after it are removed (their bytes zeroed); the queue offsets the writer
     * hands out continue right after the last kept entry; the dispatcher continues from {@code offset}; index entries
     * pointing beyond stay but queries re-check each record (offset, key and store time), and new records there are
     * indexed again.</li>
     * <li>The flushed offset and the confirm offset drop to {@code offset}; a checkpoint is written before this
     * returns, so reopening (cleanly or after a crash) recovers exactly the truncated state.</li>
     * <li>A partly received replicated record is dropped: replication continues at the new max offset.</li>
     * </ul>
     * An offset at or past the max offset changes nothing (RocketMQ's rule). Throws IllegalArgumentException when
     * {@code offset} is below the min offset or not a record boundary (a record's, a segment filler's or a segment's
     * start), IllegalStateException when the store is closed.
     */
    public long truncateTo(long offset) {
        return controllerWrites.truncateTo(offset);
    }

    /**
     * From now on this store takes replicated bytes ({@link #appendReplicated}) and refuses own appends, starting at
     * the max offset (a partly received record is dropped). Writer thread.
     */
    public void switchToReplica() {
        controllerWrites.switchToReplica();
    }

    /**
     * From now on this store takes its own appends and refuses replicated bytes. Waits (up to
     * {@code ControllerWrites.DISPATCH_CATCH_UP_WAIT_MS}, 10 s) for the dispatcher to reach its limit, then recomputes the queue offsets the
     * writer hands out from the ConsumeQueues and the records not yet dispatched (so records held back by the
     * confirm-offset gate keep their offsets), raised to the bounds reserved before a crash (unless a truncation or
     * a switch to replica since the open gave those offsets to a new master). Writer thread.
     */
    public void switchToOwnAppends() {
        controllerWrites.switchToOwnAppends();
    }

    /** The confirm offset (RocketMQ's confirmOffset): every in-sync replica has every byte below it. Any thread. */
    public long confirmOffset() {
        return dispatcher.confirmOffset();
    }

    /**
     * Sets the confirm offset (a master computes it from its in-sync replicas' acknowledgements, a slave takes the
     * master's, capped at its own max offset). Kept in the checkpoint at the next flush of ConsumeQueues. Any thread.
     */
    public void setConfirmOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("confirm offset " + offset + " < 0");
        }
        dispatcher.setConfirmOffset(offset);
    }

    /**
     * While on, ConsumeQueue and index entries are built only for records ending at or below min(max offset,
     * confirm offset), so consumers never see a record that is not on every in-sync replica (RocketMQ's reput with
     * readUnCommitted=false). Entries already built stay. Any thread.
     */
    public void setDispatchGatedByConfirmOffset(boolean gated) {
        dispatcher.setGated(gated);
    }

    public boolean isDispatchGatedByConfirmOffset() {
        return dispatcher.isGated();
    }

    /** CommitLog offset below which every record has its ConsumeQueue and index entries. Any thread. */
    public long dispatchedOffset() {
        return dispatcher.dispatchedOffset();
    }

    /**
     * Store time of the newest record with its ConsumeQueue and index entries ({@link Long#MIN_VALUE} before the
     * first since the open): every record stamped before this millisecond has its entries. Any thread.
     */
    public long dispatchedStoreTimeMs() {
        return dispatcher.dispatchedStoreTimeMs();
    }

    /**
     * Called with the new CommitLog min offset after retention deleted segments (on the store's scheduler thread;
     * must not block for long). Controller mode prunes its epoch file there. One listener; set it once.
     */
    public void setMinOffsetListener(LongConsumer listener) {
        services.retention().setMinOffsetListener(listener);
    }

    /** Forces everything appended so far, whatever the flush mode; returns the durable offset. Any thread. */
    public long flush() {
        FlushStatus status = services.flusher().awaitDurable(commitLog.maxOffset()).join();
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

    /**
     * Published CommitLog bytes from {@code offset} as a read-only slice of at most {@code maxBytes} (positive), never
     * crossing a segment end and never beyond {@link #getCommitLogMaxOffset()}: what a master streams to a replica.
     * Empty at the max offset; null when {@code offset} is not kept (below the min offset, above the max, or in a
     * deleted segment). The slice stays valid like a {@link FoundMessage} record. Any thread.
     */
    public ByteBuffer readCommitLog(long offset, int maxBytes) {
        return commitLog.readPublished(offset, maxBytes);
    }

    /**
     * Where the next replicated bytes must start: the raw write position, past {@link #getCommitLogMaxOffset()} by
     * the bytes of a record only partly received so far. Any thread.
     */
    public long replicaWriteOffset() {
        return replicaWriter.writeOffset();
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
        writer.removeTopic(topic);
        queues.deleteTopic(topic);
    }

    public void setDispatchListener(DispatchListener listener) {
        dispatcher.setListener(listener);
    }

    /**
     * On: an append no longer wakes the dispatcher thread; its ConsumeQueue and index entries are written by
     * {@link #dispatchBehindWriter}, which the writer thread then calls once the append's answer is on its way (when
     * the dispatcher thread is parked: one thread wake-up less per append; when it is busy, it is woken as before).
     * A writer that forgets the call delays the entries to the dispatcher's idle wake-up (10 ms). Off by default.
     */
    public void setDispatchBehindWriter(boolean on) {
        dispatcher.setRoundsBehindWriter(on);
    }

    /** Whether an append left its dispatch to {@link #dispatchBehindWriter}. Writer thread only. */
    public boolean isAwaitingDispatchBehindWriter() {
        return dispatcher.isAwaitingRoundBehindWriter();
    }

    /**
     * With {@link #setDispatchBehindWriter}: the dispatch round the appends since the last call left, run here if the
     * dispatcher thread is parked (at most 256 records; the rest on the dispatcher thread), else a wake-up for it.
     * Writer thread only; nothing to do when no append is waiting for it.
     */
    public void dispatchBehindWriter() {
        dispatcher.dispatchBehindWriter();
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
                services.retention().diskUsedPercent(), services.retention().isReadOnly(),
                services.flusher().forceCount(), services.flusher().lastForceMicros(),
                services.flusher().maxForceMicros(), pageCache.pageCacheHitReads(), pageCache.diskReads());
    }

    /** Runs retention now (it also runs every retentionCheckIntervalMs); returns segments deleted. */
    public int runRetention() {
        return services.retention().runOnce();
    }

    /** True when the disk passed diskCriticalRatio and appends are refused. */
    public boolean isReadOnly() {
        return services.retention().isReadOnly();
    }

    public StoreConfig config() {
        return config;
    }

    /**
     * Clean shutdown: refuses new writes, dispatches and forces everything, writes the checkpoint, removes the
     * abort file and releases the directory lock. A write running when close is called completes first; later
     * appends return SERVICE_NOT_AVAILABLE and replicated bytes throw ReplicationException. The bytes of a record only
     * partly received from a master are dropped (the master sends them again from the max offset).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        gate.stop();
        services.stop();
        reservedOffsets.close();       // no renewal runs any more; the writer has stopped
        reservedOffsets.forgetAll();   // everything is forced: no reserved bound is needed any more
        files.removeAbortFile();
        files.unlock();
        log.info("store {} closed at commit log offset {}", config.storePathRootDir(), commitLog.maxOffset());
    }
}
