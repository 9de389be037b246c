package io.vrmq.broker.timer;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.schedule.DueMessage;
import io.vrmq.broker.schedule.DueMessageWriter;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.store.GetMessageStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Delivers timer messages (RocketMQ 5.x's arbitrary deliver time). {@link TimerRouting} stores them to the timer
 * topic with their slot as ConsumeQueue tagsCode; this service reads that queue in order into a {@link TimerIndex}
 * (slot → offsets, in memory) and, when a slot's end has come, stores its messages into their real topics. So a
 * message is delivered within one slot (1 s) after its requested time and never before it. One Vert.x timer, set for
 * the earliest slot, is all the waiting there is; the dispatcher's note of a new entry starts a scan. A recall's
 * delete record ({@link TimerDeleteMark}) in the same queue names a held message of its slot that is then dropped
 * when the slot is due instead of delivered, as RocketMQ's timer does.
 * <p>
 * Durability: the held messages themselves are in the CommitLog; {@code config/timerProgress.json} ({@link
 * TimerProgress}) records what was delivered, after every turn that delivered something and at stop. At start the
 * index is rebuilt from the ConsumeQueue alone (tagsCode is the slot; no record is read). A clean stop loses and
 * repeats nothing; a crash repeats what was delivered after the last write (at-least-once).
 * <p>
 * Memory: every held message costs about 16 bytes of heap until it is delivered (at most timerMaxDelaySec ahead);
 * {@link TimerFlowControl} bounds how many are held per second and in all, refusing new timer sends beyond, and how
 * many recalled keys are held, refusing new recalls beyond.
 * Runs on the context that calls {@link #start()}; {@link #onDispatched} may be called from any thread.
 */
public final class TimerMessageService {
    private static final Logger log = LoggerFactory.getLogger(TimerMessageService.class);
    /** Entries scanned per turn before deliveries get their turn: bounds one turn's length. */
    private static final int MAX_SCAN_PER_TURN = 16 * 1024;
    /** Due messages read and stored per step. */
    private static final int DELIVER_BATCH = 32;
    /**
     * Deliveries per turn before the next turn (which scans new entries first): a second holding very many timers
     * is delivered over several turns, so scanning, progress writes and a stop never wait for all of it.
     */
    private static final int MAX_DELIVER_PER_TURN = 16 * 1024;
    private static final long RETRY_AFTER_REFUSAL_MS = 1_000;

    private final Vertx vertx;
    private final StoreAccess store;
    private final TimerProgress.File progressFile;
    private final DueMessageWriter writer;
    private final LongSupplier clockMs;
    private final TimerFlowControl flowControl;
    private final int maxScanPerTurn;
    private final TimerIndex index = new TimerIndex();
    private Context context;
    private TimerProgress loaded = TimerProgress.FIRST_START;
    private long scanOffset;
    /**
     * Every timer-queue entry stored before this instant has been read into the index: a slot is delivered only
     * when its due time is not after it, so a recall stored before the due time is always seen first (RocketMQ's
     * dequeue likewise never passes its enqueue). Moves to the scan's start when a scan reaches the queue's end
     * with the dispatcher caught up (to the dispatcher's newest store time when it is behind: a recall in the commit
     * log but not yet in the timer queue must still be seen first), and to the newest scanned entry's store time
     * while a backlog is read over several turns.
     */
    private long scannedThroughMs = Long.MIN_VALUE;
    private long rebuildEndOffset;
    private long maxDeliveredSlotMs;
    private long timerId = -1;
    private boolean isRunning;
    private boolean isWakeQueued;
    private Future<Void> turn = Future.succeededFuture();
    private volatile boolean isStarted;
    private volatile boolean isStopped;

    TimerMessageService(Vertx vertx, StoreAccess store, TimerProgress.File progressFile, LongSupplier clockMs,
                        TimerFlowControl flowControl, int maxScanPerTurn) {
        this.flowControl = flowControl;
        this.maxScanPerTurn = maxScanPerTurn;
        this.vertx = vertx;
        this.store = store;
        this.progressFile = progressFile;
        this.writer = new DueMessageWriter(store);
        this.clockMs = clockMs;
    }

    /** The broker's service: progress in {@code <storeRoot>/config/timerProgress.json}, the system clock. */
    public static TimerMessageService create(Vertx vertx, StoreAccess store, RemotingJson json, String storeRoot,
                                             TimerFlowControl flowControl) {
        TimerProgress.File file = new TimerProgress.File(new JsonFile(vertx.fileSystem(),
            storeRoot + "/config/timerProgress.json"), json);
        return new TimerMessageService(vertx, store, file, System::currentTimeMillis, flowControl,
            MAX_SCAN_PER_TURN);
    }

    /** Loads progress and starts the rebuild scan. Call on the context the service is to run on. */
    public Future<Void> start() {
        context = vertx.getOrCreateContext();
        flowControl.reset();
        return progressFile.load().map(progress -> {
            loaded = progress;
            scanOffset = progress.lowOffset();
            rebuildEndOffset = progress.scanOffset();
            maxDeliveredSlotMs = progress.deliveredSlotMs();
            isStarted = true;
            log.info("timer service started, progress from {}: {}", progressFile.path(), progress);
            wake();
            return null;
        });
    }

    /** Dispatcher thread: an entry was written to some queue. Cheap unless it is the timer queue. */
    public void onDispatched(String topic, int queueId) {
        if (isStarted && !isStopped && TimerRouting.TIMER_TOPIC.equals(topic)) {
            context.runOnContext(ignored -> wake());
        }
    }

    /** Refuses new turns, waits for the running one, then writes the final progress. */
    public Future<Void> stop() {
        isStopped = true;
        cancelTimer();
        if (!isStarted) {
            return Future.succeededFuture();
        }
        return turn.transform(ignored -> progressFile.write(snapshot()))
            .onSuccess(written -> log.info("timer service stopped: {} messages held, progress {}", index.size(),
                snapshot()));
    }

    /** Messages held now (on the service context). */
    public long heldCount() {
        return index.size();
    }

    private void wake() {
        if (isStopped) {
            return;
        }
        if (isRunning) {
            isWakeQueued = true;
            return;
        }
        cancelTimer();
        isRunning = true;
        turn = scan(0).compose(this::deliverIfRebuilt).transform(outcome -> {
            isRunning = false;
            if (outcome.failed()) {
                log.error("timer turn failed at scan offset {}; retrying in {} ms", scanOffset,
                    RETRY_AFTER_REFUSAL_MS, outcome.cause());
                arm(RETRY_AFTER_REFUSAL_MS);
            } else {
                next(outcome.result());
            }
            return Future.succeededFuture();
        });
    }

    /** Reads new entries into the index; true when there is more to scan than one turn takes. */
    private Future<Boolean> scan(int scannedThisTurn) {
        if (isStopped || scannedThisTurn >= maxScanPerTurn) {
            return Future.succeededFuture(!isStopped);
        }
        long from = scanOffset;
        long rebuildEnd = rebuildEndOffset;
        long deliveredSlot = loaded.deliveredSlotMs();
        long readStartMs = clockMs.getAsLong();
        return store.read(() -> TimerQueueScan.read(store.store(), from, rebuildEnd, deliveredSlot))
            .compose(scanned -> {
                apply(scanned, readStartMs);
                return scanned.isCaughtUp() ? Future.succeededFuture(false)
                    : scan(scannedThisTurn + Math.max(1, scanned.count()));
            });
    }

    /** {@code readStartMs}: the clock before the read, so a read that found the queue's end saw all stored before. */
    private void apply(TimerQueueScan scanned, long readStartMs) {
        for (int i = 0; i < scanned.count(); i++) {
            index.add(scanned.slots()[i], scanned.queueOffsets()[i], scanned.commitLogOffsets()[i]);
            flowControl.added(scanned.slots()[i]);
        }
        for (TimerQueueScan.DeleteMark mark : scanned.deleteMarks()) {
            if (!index.addDeleteKey(mark.slotMs(), mark.key())) {
                log.debug("recall of {} in slot {}: nothing held there (delivered already, or never held)",
                    mark.key(), mark.slotMs());
            }
        }
        flowControl.deleteKeysHeld(index.deleteKeyCount());
        GetMessageStatus status = scanned.status();
        if (status == GetMessageStatus.OFFSET_OVERFLOW_BADLY || status == GetMessageStatus.OFFSET_TOO_SMALL) {
            log.warn("timer queue offset {} is outside the queue ({}); continuing at {}", scanOffset, status,
                scanned.nextOffset());
        }
        if (status != GetMessageStatus.NO_MESSAGE_IN_QUEUE && status != GetMessageStatus.NO_MATCHED_LOGIC_QUEUE) {
            scanOffset = scanned.nextOffset();
        }
        long readThroughMs = scanned.isCaughtUp() ? Math.min(readStartMs, scanned.dispatchedThroughMs())
            : Long.MIN_VALUE;
        scannedThroughMs = Math.max(scannedThroughMs, Math.max(readThroughMs, scanned.lastStoreMs()));
        if (scanned.isCaughtUp() && scanOffset < rebuildEndOffset) {
            log.warn("timer queue ends at {} before the recorded scan offset {}; rebuild stops there", scanOffset,
                rebuildEndOffset);
            rebuildEndOffset = scanOffset;
        }
    }

    /** Delivery waits for the rebuild: until then, entries not yet re-read could be due before indexed ones. */
    private Future<TurnEnd> deliverIfRebuilt(boolean hasMoreToScan) {
        if (scanOffset < rebuildEndOffset) {
            return Future.succeededFuture(new TurnEnd(hasMoreToScan, false));
        }
        return deliverDue(false, 0).compose(delivered -> {
            TurnEnd end = new TurnEnd(hasMoreToScan || delivered.hasMoreDue(), delivered.isRefused());
            return delivered.hasDelivered() ? progressFile.write(snapshot()).map(end) : Future.succeededFuture(end);
        });
    }

    /**
     * Delivers due slots in slot order, {@link #DELIVER_BATCH} messages per step, until none is due or a refusal. A
     * slot is due when its end has come and the scan has read every entry stored before that end
     * ({@link #scannedThroughMs}); with the scan caught up that is at once, behind a backlog it waits for the scan.
     */
    private Future<Delivered> deliverDue(boolean hasDelivered, int deliveredThisTurn) {
        long now = clockMs.getAsLong();
        if (isStopped || index.isEmpty()
            || TimerRouting.dueMs(index.firstSlotMs()) > Math.min(now, scannedThroughMs)) {
            return Future.succeededFuture(new Delivered(hasDelivered, false, false));
        }
        if (deliveredThisTurn >= MAX_DELIVER_PER_TURN) {
            return Future.succeededFuture(new Delivered(hasDelivered, false, true));
        }
        long slot = index.firstSlotMs();
        long[][] taken = index.peekFirst(DELIVER_BATCH);
        Set<String> deleteKeys = index.firstDeleteKeys();   // a view: no scan changes the index during this read
        return store.read(() -> readDue(taken[0], taken[1], now, deleteKeys))
            .compose(due -> writer.appendInOrder(due, () -> isStopped))
            .compose(handled -> {
                if (handled > 0) {
                    index.removeFirst(handled);
                    flowControl.removed(slot, handled);
                    flowControl.deleteKeysHeld(index.deleteKeyCount());
                    maxDeliveredSlotMs = Math.max(maxDeliveredSlotMs, slot);
                }
                if (handled < taken[0].length) {
                    return Future.succeededFuture(new Delivered(hasDelivered || handled > 0, !isStopped, false));
                }
                return deliverDue(true, deliveredThisTurn + handled);
            });
    }

    /**
     * Reader thread: the held records, decoded and turned into their deliveries; one whose key a recall named
     * ({@code deleteKeys}) becomes a skipped entry, so it is never delivered.
     */
    private List<DueMessage> readDue(long[] queueOffsets, long[] commitLogOffsets, long now, Set<String> deleteKeys) {
        List<DueMessage> due = new ArrayList<>(queueOffsets.length);
        for (int i = 0; i < queueOffsets.length; i++) {
            ByteBuffer record = store.store().lookMessageByOffset(commitLogOffsets[i]);
            if (record == null) {
                log.error("timer message at commit log offset {} (queue offset {}) is gone: skipped",
                    commitLogOffsets[i], queueOffsets[i]);
                due.add(new DueMessage(queueOffsets[i], commitLogOffsets[i], null));
            } else {
                StoredMessage held = StoredMessage.decode(record);
                if (isRecalled(held, deleteKeys)) {
                    log.debug("timer message at commit log offset {} was recalled: not delivered",
                        commitLogOffsets[i]);
                    due.add(new DueMessage(queueOffsets[i], commitLogOffsets[i], null));
                } else {
                    due.add(new DueMessage(queueOffsets[i], commitLogOffsets[i], TimerDelivery.from(held, now)));
                }
            }
        }
        return due;
    }

    private static boolean isRecalled(StoredMessage held, Set<String> deleteKeys) {
        if (deleteKeys.isEmpty()) {
            return false;
        }
        String key = TimerDeleteMark.keyOf(held.propertyMap());
        return key != null && deleteKeys.contains(key);
    }

    /**
     * Progress that is exact when deliveries went in slot order; after a refused delivery left an earlier slot
     * held, deliveredSlotMs drops below it, so a restart delivers some again rather than skip it.
     */
    private TimerProgress snapshot() {
        if (scanOffset < rebuildEndOffset) {
            return loaded;
        }
        long delivered = index.isEmpty() ? maxDeliveredSlotMs
            : Math.min(maxDeliveredSlotMs, index.firstSlotMs() - 1);
        return new TimerProgress(index.minQueueOffset(scanOffset), scanOffset, delivered);
    }

    private void next(TurnEnd end) {
        if (isWakeQueued || end.hasMoreToScan()) {
            isWakeQueued = false;
            wake();
        } else if (end.isRefused()) {
            arm(RETRY_AFTER_REFUSAL_MS);
        } else if (!index.isEmpty()) {
            arm(Math.max(1, TimerRouting.dueMs(index.firstSlotMs()) - clockMs.getAsLong()));
        }
    }

    private void arm(long delayMs) {
        if (isStopped) {
            return;
        }
        cancelTimer();
        timerId = vertx.setTimer(delayMs, id -> {
            timerId = -1;
            wake();
        });
    }

    private void cancelTimer() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    /** How a turn ended. */
    private record TurnEnd(boolean hasMoreToScan, boolean isRefused) {
    }

    /** What a delivery run did; {@code hasMoreDue}: it stopped at the turn's cap with due messages left. */
    private record Delivered(boolean hasDelivered, boolean isRefused, boolean hasMoreDue) {
    }
}
