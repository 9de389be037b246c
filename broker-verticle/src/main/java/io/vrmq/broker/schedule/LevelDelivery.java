package io.vrmq.broker.schedule;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.TagFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Delivery of one delay level: reads SCHEDULE_TOPIC_XXXX queue {@code level - 1} from {@link #offset()} in order and
 * stores each entry whose deliver time (its tagsCode) has come into its real topic. Store times only grow along a
 * queue and a level has one delay, so deliver times only grow too: the first entry not yet due sets a one-shot Vert.x
 * timer for its deliver time, and an empty queue waits for {@link #onNewEntry()} (called when the dispatcher writes
 * an entry). Nothing polls.
 * <p>
 * Not thread-safe: every method runs on the owning service's context; reads and appends go through the store's
 * threads and come back to it. At most one turn (read a batch, append the due ones) runs at a time.
 */
final class LevelDelivery {
    private static final Logger log = LoggerFactory.getLogger(LevelDelivery.class);
    /** Entries read per turn: bounds one turn's heap copy and the work lost to a stop mid-batch. */
    private static final int BATCH_MESSAGES = 32;
    private static final int BATCH_MAX_BYTES = 4 * 1024 * 1024;
    /** Pause after the store refused a delivery for a reason that may pass (not available, disk full). */
    private static final long RETRY_AFTER_REFUSAL_MS = 1_000;

    private final ScheduleMessageService service;
    private final Vertx vertx;
    private final int level;
    private final int queueId;
    private final long delayMs;
    private long offset;
    private long timerId = -1;
    private boolean isRunning;
    private boolean isWakeQueued;
    private Future<Void> turn = Future.succeededFuture();

    LevelDelivery(ScheduleMessageService service, Vertx vertx, int level, long delayMs, long offset) {
        this.service = service;
        this.vertx = vertx;
        this.level = level;
        this.queueId = level - 1;
        this.delayMs = delayMs;
        this.offset = offset;
    }

    int level() {
        return level;
    }

    /** Next queue offset to deliver. */
    long offset() {
        return offset;
    }

    /** The dispatcher wrote an entry to this level's queue. */
    void onNewEntry() {
        if (timerId < 0) {
            // With a timer armed the head is not due yet, and a newer entry is due no earlier: nothing to do.
            wake();
        }
    }

    /** Starts a turn now, or right after the running one. */
    void wake() {
        if (service.isStopped()) {
            return;
        }
        if (isRunning) {
            isWakeQueued = true;
            return;
        }
        cancelTimer();
        isRunning = true;
        turn = runTurn().transform(outcome -> {
            isRunning = false;
            if (outcome.failed()) {
                log.error("delay level {}: delivery from offset {} failed; retrying in {} ms", level, offset,
                    RETRY_AFTER_REFUSAL_MS, outcome.cause());
                arm(RETRY_AFTER_REFUSAL_MS);
            } else {
                next(outcome.result());
            }
            return Future.succeededFuture();
        });
    }

    /** Completes when no turn is running (used at stop, after the service refuses new turns). */
    Future<Void> idle() {
        cancelTimer();
        return turn;
    }

    private Future<Long> runTurn() {
        long from = offset;
        return service.store().read(() -> readBatch(from))
            .compose(batch -> service.writer().appendInOrder(batch.due(), service::isStopped)
                .map(handled -> settle(batch, handled)));
    }

    /** Reader thread: the due entries from {@code from}, decoded, up to the first not yet due. */
    private LevelBatch readBatch(long from) {
        long now = service.clockMs();
        GetMessageResult result = service.store().store().getMessages(TopicNames.SCHEDULE_TOPIC, queueId, from,
            BATCH_MESSAGES, BATCH_MAX_BYTES, TagFilter.ALL);
        List<DueMessage> due = new ArrayList<>();
        for (FoundMessage found : result.messages()) {
            long deliverMs = correctDeliverMs(now, found.tagsCode());
            if (deliverMs > now) {
                return new LevelBatch(result, due, found.queueOffset(), deliverMs);
            }
            StoredMessage held = StoredMessage.decode(found.record());
            due.add(new DueMessage(found.queueOffset(), found.commitLogOffset(), TimeUpMessage.from(held)));
        }
        return new LevelBatch(result, due, -1, -1);
    }

    /**
     * A deliver time further ahead than the level's whole delay means the clock went back or the levels were
     * reconfigured: deliver now rather than hold the level, as RocketMQ's correctDeliverTimestamp does.
     */
    private long correctDeliverMs(long now, long deliverMs) {
        return deliverMs > now + delayMs ? now : deliverMs;
    }

    /** Moves the offset past what was handled; returns when to run again: 0 now, > 0 at that time, < 0 on a wake. */
    private long settle(LevelBatch batch, int handled) {
        long before = offset;
        List<DueMessage> due = batch.due();
        if (handled < due.size()) {
            offset = due.get(handled).queueOffset();
            persistIfMoved(before);
            return service.isStopped() ? -1 : service.clockMs() + RETRY_AFTER_REFUSAL_MS;
        }
        long when = nextAfterAll(batch);
        persistIfMoved(before);
        return when;
    }

    private long nextAfterAll(LevelBatch batch) {
        if (batch.notDueOffset() >= 0) {
            offset = batch.notDueOffset();
            return batch.notDueUntilMs();
        }
        GetMessageStatus status = batch.result().status();
        switch (status) {
            case FOUND, NO_MATCHED_MESSAGE, OFFSET_FOUND_NULL, OFFSET_TOO_SMALL -> {
                offset = batch.result().nextBeginOffset();
                return 0;
            }
            case OFFSET_OVERFLOW_BADLY -> {
                log.warn("delay level {}: offset {} is past the queue's max {}; continuing from there", level,
                    offset, batch.result().nextBeginOffset());
                offset = batch.result().nextBeginOffset();
                return -1;
            }
            default -> {
                return -1;
            }
        }
    }

    private void persistIfMoved(long before) {
        if (offset != before) {
            service.persist();
        }
    }

    private void next(long when) {
        if (isWakeQueued || when == 0) {
            isWakeQueued = false;
            wake();
        } else if (when > 0) {
            arm(Math.max(1, when - service.clockMs()));
        }
    }

    private void arm(long delay) {
        if (service.isStopped()) {
            return;
        }
        cancelTimer();
        timerId = vertx.setTimer(delay, id -> {
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

    /** One turn's read: the store's answer, the due entries, and the first entry not due yet (-1 when none). */
    private record LevelBatch(GetMessageResult result, List<DueMessage> due, long notDueOffset, long notDueUntilMs) {
    }
}
