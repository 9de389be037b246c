package io.vrmq.store.dispatch;

import io.vrmq.store.DamagedRange;
import io.vrmq.store.DispatchListener;
import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.commitlog.RecordScanner;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.format.TopicNames;
import io.vrmq.store.index.IndexService;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the CommitLog behind the writer, in order, and for each record writes its ConsumeQueue entry and index
 * entries, then tells the {@link DispatchListener}. Prepared and rolled-back transaction records get no ConsumeQueue
 * entry (as in RocketMQ). A damaged record found on the way (only possible after recovery) is reported; if its
 * header is intact its queue offset is reserved with a blank entry so it is never reused nor served.
 *
 * <p>Confirm-offset gate (controller mode, RocketMQ's reput with {@code readUnCommitted=false}): while gated, only
 * records that end at or below the confirm offset are dispatched, so consumers never see a record the in-sync
 * replicas may not all have. A confirm offset inside a record (an Apache slave acknowledges raw byte counts) stops
 * the dispatch before that record.
 *
 * <p>Threads: {@link #dispatchUpTo} runs on the opening thread during recovery, then {@link #run} on the dispatcher
 * thread; {@link #afterAppend} from the writer after each append: it wakes the dispatcher (cheap when the dispatcher
 * is busy) or, when the store's owner runs rounds behind the writer ({@link #setRoundsBehindWriter}), leaves the
 * round to {@link #dispatchBehindWriter}, which the writer thread calls once the answers of its appends are on their
 * way: a round right there while the dispatcher thread is parked saves waking it, one thread wake-up per append when
 * sends come one at a time. Rounds never overlap (each holds {@code turn}). The gate and the confirm offset may be
 * changed from any thread; {@link #rewindTo} from the store's writer, which it holds off the dispatcher while the log
 * is cut.
 */
public final class Dispatcher implements Runnable {
    private static final int TRANSACTION_TYPE_MASK = 0x3 << 2;
    private static final int TRANSACTION_PREPARED = 0x1 << 2;
    private static final int TRANSACTION_ROLLBACK = 0x3 << 2;
    /** Upper bound on a sleep when no wakeup comes (a missed wakeup costs at most this). */
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Bounds a round behind the writer (its next appends wait for it); past it the dispatcher thread goes on. */
    static final int MAX_RECORDS_BEHIND_WRITER = 256;
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final CommitLog commitLog;
    private final ConsumeQueueTable queues;
    private final IndexService index;
    private final TagsCodeFunction tagsCodes;
    private final Consumer<DamagedRange> damageSink;
    /** Held for every dispatch round; {@link #rewindTo} takes it to move the scanner. */
    private final ReentrantLock turn = new ReentrantLock();
    private RecordScanner scanner;   // guarded by turn
    private volatile DispatchListener listener;
    private volatile long dispatchedOffset;
    /** Store time of the newest dispatched record, published after its entries ({@link #dispatchedStoreTimeMs}). */
    private volatile long dispatchedStoreTimeMs = Long.MIN_VALUE;
    /** The same, for the record dispatched last in the running dispatch loop; published when the loop ends. */
    private long lastDispatchedStoreTimeMs = Long.MIN_VALUE;
    private volatile boolean isGated;
    private volatile long confirmOffset;
    private volatile boolean running = true;
    private volatile boolean parked;
    private volatile Thread thread;
    private volatile boolean isRoundsBehindWriter;
    /** An append left its round to {@link #dispatchBehindWriter}. Writer thread only. */
    private boolean isAwaitingRoundBehindWriter;

    public Dispatcher(CommitLog commitLog, ConsumeQueueTable queues, IndexService index, TagsCodeFunction tagsCodes,
                      Consumer<DamagedRange> damageSink, long startOffset, boolean isGated, long confirmOffset) {
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.tagsCodes = tagsCodes;
        this.damageSink = damageSink;
        this.scanner = new RecordScanner(commitLog.segments(), startOffset);
        this.dispatchedOffset = startOffset;
        this.isGated = isGated;
        this.confirmOffset = confirmOffset;
    }

    public void setListener(DispatchListener listener) {
        this.listener = listener;
    }

    /** CommitLog offset below which every record has its ConsumeQueue and index entries. */
    public long dispatchedOffset() {
        return dispatchedOffset;
    }

    /**
     * Store time of the newest record that has its ConsumeQueue and index entries, or {@link Long#MIN_VALUE} before
     * the first. Store times rise with offsets (the writer never stamps one earlier than the last), so every record
     * stamped before this millisecond has its entries; one of the same millisecond may not yet. Published once per
     * dispatch loop, so it may lag {@link #dispatchedOffset}: a reader using it as a bound errs on the safe side.
     */
    public long dispatchedStoreTimeMs() {
        return dispatchedStoreTimeMs;
    }

    /** The confirm offset the gate uses (kept whether or not the gate is on). */
    public long confirmOffset() {
        return confirmOffset;
    }

    /** Moves the confirm offset; a raised one wakes the dispatcher. Any thread. */
    public void setConfirmOffset(long offset) {
        long previous = confirmOffset;
        confirmOffset = offset;
        if (offset > previous) {
            wakeup();
        }
    }

    public boolean isGated() {
        return isGated;
    }

    /** Turns the confirm-offset gate on or off; turning it off wakes the dispatcher. Any thread. */
    public void setGated(boolean gated) {
        isGated = gated;
        if (!gated) {
            wakeup();
        }
    }

    /**
     * Dispatches every record ending at or below {@code limitOffset} (a record boundary: the published max offset or
     * recovery's end) and, while gated, at or below the confirm offset; returns how many records were dispatched.
     */
    public long dispatchUpTo(long limitOffset) {
        return dispatchUpTo(limitOffset, Long.MAX_VALUE);
    }

    /** Like {@link #dispatchUpTo(long)}, stopping after {@code maxRecords} records (recovery, between two polls). */
    public long dispatchUpTo(long limitOffset, long maxRecords) {
        long records;
        turn.lock();
        try {
            records = dispatchLocked(limitOffset, maxRecords);
        } finally {
            turn.unlock();
        }
        if (records > 0) {
            notifyRoundDispatched();
        }
        return records;
    }

    /**
     * Holds the dispatcher off, runs {@code cut} (which truncates the CommitLog and the ConsumeQueues at
     * {@code offset}), then moves the dispatch position back to {@code offset} if it was beyond. Writer only.
     */
    public void rewindTo(long offset, Runnable cut) {
        turn.lock();
        try {
            cut.run();
            if (scanner.offset() > offset) {
                scanner = new RecordScanner(commitLog.segments(), offset);
            }
            dispatchedOffset = Math.min(dispatchedOffset, offset);
        } finally {
            turn.unlock();
        }
    }

    /** Where dispatch stops now: the CommitLog max offset, or below it the confirm offset while gated. */
    public long limit() {
        return gateLimit(commitLog.maxOffset());
    }

    private long gateLimit(long limitOffset) {
        return isGated ? Math.min(limitOffset, confirmOffset) : limitOffset;
    }

    private long dispatchLocked(long limitOffset, long maxRecords) {
        long records = 0;
        long gateLimit = gateLimit(limitOffset);
        RecordScanner.Step step;
        while (records < maxRecords && scanner.offset() < gateLimit
                && (step = scanner.next(limitOffset)) != RecordScanner.Step.END) {
            if (scanner.offset() > gateLimit) {
                scanner.rewindStep();   // ends beyond the confirm offset: not yet
                break;
            }
            if (step == RecordScanner.Step.RECORD) {
                dispatchRecord(scanner.segment().buffer(), scanner.position(), scanner.sizeBytes());
                records++;
            } else {
                dispatchDamaged();
            }
            dispatchedOffset = scanner.offset();
        }
        dispatchedOffset = Math.max(dispatchedOffset, Math.min(scanner.offset(), gateLimit));
        dispatchedStoreTimeMs = lastDispatchedStoreTimeMs;
        return records;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        while (running) {
            try {
                dispatchUpTo(commitLog.maxOffset());
            } catch (RuntimeException e) {
                log.error("dispatch failed at commit log offset {}; retrying", dispatchedOffset, e);
            }
            parked = true;
            if (running && gateLimit(commitLog.maxOffset()) <= dispatchedOffset) {
                LockSupport.parkNanos(this, IDLE_PARK_NANOS);
            }
            parked = false;
        }
        dispatchUpTo(commitLog.maxOffset());
    }

    /**
     * On: appends no longer wake the dispatcher thread; the writer thread must call {@link #dispatchBehindWriter}
     * after them (if it does not, the dispatcher's idle wake-up, every 10 ms, still dispatches them). Any thread.
     */
    public void setRoundsBehindWriter(boolean on) {
        isRoundsBehindWriter = on;
    }

    /** The writer appended records: wakes the dispatcher, or leaves the round to {@link #dispatchBehindWriter}. */
    public void afterAppend() {
        if (isRoundsBehindWriter) {
            isAwaitingRoundBehindWriter = true;
        } else {
            wakeup();
        }
    }

    /** Whether an append since the last {@link #dispatchBehindWriter} left its round to it. Writer thread. */
    public boolean isAwaitingRoundBehindWriter() {
        return isAwaitingRoundBehindWriter;
    }

    /**
     * Writer thread, once the answers of its appends are handed back: while the dispatcher thread is parked, a round
     * of at most {@link #MAX_RECORDS_BEHIND_WRITER} records here (the same round it would run, listener included),
     * which saves waking it; otherwise, or when records remain, wakes it. Nothing to do without an append since the
     * last call.
     */
    public void dispatchBehindWriter() {
        if (!isAwaitingRoundBehindWriter) {
            return;
        }
        isAwaitingRoundBehindWriter = false;
        if (running && parked && turn.tryLock()) {   // not running: the store closes, its last round is the thread's
            long records;
            try {
                records = dispatchLocked(commitLog.maxOffset(), MAX_RECORDS_BEHIND_WRITER);
            } finally {
                turn.unlock();
            }
            if (records > 0) {
                notifyRoundDispatched();
            }
            if (gateLimit(commitLog.maxOffset()) <= dispatchedOffset) {
                return;
            }
        }
        wakeup();
    }

    /** Tells the dispatcher new records are there. Any thread. */
    public void wakeup() {
        if (parked) {
            Thread dispatcherThread = thread;
            if (dispatcherThread != null) {
                LockSupport.unpark(dispatcherThread);
            }
        }
    }

    /** Stops {@link #run} after it dispatched everything published. */
    public void shutdown() {
        running = false;
        Thread dispatcherThread = thread;
        if (dispatcherThread != null) {
            LockSupport.unpark(dispatcherThread);
        }
    }

    private void dispatchRecord(ByteBuffer buffer, int position, int sizeBytes) {
        long commitLogOffset = RecordReader.physicalOffset(buffer, position);
        String topic = RecordReader.topic(buffer, position);
        String properties = RecordReader.properties(buffer, position);
        int sysFlag = RecordReader.sysFlag(buffer, position);
        long storeTimestamp = RecordReader.storeTimestamp(buffer, position);
        int transactionType = sysFlag & TRANSACTION_TYPE_MASK;
        if (transactionType != TRANSACTION_PREPARED && transactionType != TRANSACTION_ROLLBACK) {
            int queueId = RecordReader.queueId(buffer, position);
            long queueOffset = RecordReader.queueOffset(buffer, position);
            long tagsCode = tagsCodes.tagsCode(topic, properties, storeTimestamp);
            ConsumeQueue queue = queues.findOrCreate(topic, queueId);
            queue.put(queueOffset, commitLogOffset, sizeBytes, tagsCode);
            notifyListener(topic, queueId, queue.maxOffset(), tagsCode, storeTimestamp);
        }
        index.index(topic, properties, sysFlag, commitLogOffset, storeTimestamp);
        lastDispatchedStoreTimeMs = storeTimestamp;
    }

    private void dispatchDamaged() {
        DamagedRange range = new DamagedRange(scanner.segment().file(), scanner.position(), scanner.stepOffset(),
                scanner.sizeBytes(), scanner.reason());
        damageSink.accept(range);
        if (scanner.isHeaderReadable()) {
            ByteBuffer buffer = scanner.segment().buffer();
            int position = scanner.position();
            String topic = RecordReader.topic(buffer, position);
            int queueId = RecordReader.queueId(buffer, position);
            int transactionType = RecordReader.sysFlag(buffer, position) & TRANSACTION_TYPE_MASK;
            boolean plausible = TopicNames.isValid(topic) && queueId >= 0
                    && RecordReader.queueOffset(buffer, position) >= 0;
            if (plausible && transactionType != TRANSACTION_PREPARED && transactionType != TRANSACTION_ROLLBACK) {
                queues.findOrCreate(topic, queueId).putBlank(RecordReader.queueOffset(buffer, position));
            }
        }
    }

    private void notifyRoundDispatched() {
        DispatchListener current = listener;
        if (current == null) {
            return;
        }
        try {
            current.onRoundDispatched();
        } catch (RuntimeException e) {
            log.error("dispatch listener failed at the end of a round at commit log offset {}", dispatchedOffset, e);
        }
    }

    private void notifyListener(String topic, int queueId, long newMaxOffset, long tagsCode, long storeTimestamp) {
        DispatchListener current = listener;
        if (current == null) {
            return;
        }
        try {
            current.onDispatched(topic, queueId, newMaxOffset, tagsCode, storeTimestamp);
        } catch (RuntimeException e) {
            log.error("dispatch listener failed for {}-{} offset {}", topic, queueId, newMaxOffset, e);
        }
    }
}
