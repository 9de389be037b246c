package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.store.AppendStatus;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.TagFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RocketMQ's PopReviveService, master only: every reviveInterval it takes the checkpoints whose invisible time has
 * passed and puts each unacked message into the group's POP retry topic with reconsume times + 1 (or, past the
 * group's retryMaxTimes, into {@code %DLQ%group}), then writes a revived record and closes the checkpoint. The
 * copies are stored before the record, so a crash in between repeats the copies (a message may then come back
 * twice) and never loses one. Runs on the broker's context; reads and appends hop to the store's threads.
 */
final class ReviveService {
    private static final Logger log = LoggerFactory.getLogger(ReviveService.class);
    /** Checkpoints handled per turn; a full turn is followed by another at once. */
    static final int MAX_CHECKPOINTS_PER_TURN = 256;

    private final Vertx vertx;
    private final BrokerContext broker;
    private final PopState state;
    private final ReviveLog reviveLog;
    private final RevivedCopies copies;
    private final PopMeters meters;
    private final long intervalMs;
    private long timerId = -1;
    private boolean isTurnRunning;
    private Future<Void> turn = Future.succeededFuture();

    ReviveService(Vertx vertx, BrokerContext broker, PopConfig config, PopState state, ReviveLog reviveLog,
                  RevivedCopies copies, PopMeters meters) {
        this.vertx = vertx;
        this.broker = broker;
        this.state = state;
        this.reviveLog = reviveLog;
        this.copies = copies;
        this.meters = meters;
        this.intervalMs = config.reviveIntervalMs();
    }

    void start() {
        if (timerId < 0) {
            timerId = vertx.setPeriodic(intervalMs, id -> runTurns());
        }
    }

    /** No new turns; completes when the running one has. */
    Future<Void> stop() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
        return turn;
    }

    private void runTurns() {
        if (isTurnRunning || timerId < 0) {
            return;
        }
        InflightTable table = state.tableIfActive();
        if (table == null) {
            return;
        }
        List<Checkpoint> due = table.due(System.currentTimeMillis(), MAX_CHECKPOINTS_PER_TURN);
        if (due.isEmpty()) {
            return;
        }
        isTurnRunning = true;
        turn = reviveAll(table, due).transform(outcome -> {
            isTurnRunning = false;
            if (outcome.failed()) {
                log.error("revive turn of {} checkpoints failed; retried in {} ms", due.size(), intervalMs,
                    outcome.cause());
            } else if (due.size() == MAX_CHECKPOINTS_PER_TURN) {
                runTurns();
            }
            return Future.succeededFuture();
        });
    }

    private Future<Void> reviveAll(InflightTable table, List<Checkpoint> due) {
        return broker.store().read(() -> readUnacked(due))
            .compose(unacked -> storeCopies(due, unacked, 0, new ArrayList<>()))
            .compose(revived -> closeRevived(table, revived));
    }

    /** Reader thread: the unacked messages of each checkpoint, in checkpoint order (null where one is gone). */
    private List<List<StoredMessage>> readUnacked(List<Checkpoint> due) {
        List<List<StoredMessage>> all = new ArrayList<>(due.size());
        for (Checkpoint checkpoint : due) {
            List<StoredMessage> messages = new ArrayList<>();
            for (int i = 0; i < checkpoint.messageCount(); i++) {
                if (!checkpoint.isAcked(i)) {
                    messages.add(readOne(checkpoint.queue(), checkpoint.offsetAt(i)));
                }
            }
            all.add(messages);
        }
        return all;
    }

    private StoredMessage readOne(QueueKey queue, long offset) {
        GetMessageResult result = broker.store().store().getMessages(queue.topic(), queue.queueId(), offset, 1,
            Integer.MAX_VALUE, TagFilter.ALL);
        if (result.status() != GetMessageStatus.FOUND || result.messages().get(0).queueOffset() != offset) {
            log.warn("revive of {} offset {}: the message is gone ({}); nothing to bring back", queue, offset,
                result.status());
            return null;
        }
        FoundMessage found = result.messages().get(0);
        return StoredMessage.decode(found.record());
    }

    /** Stores the copies checkpoint by checkpoint; a refusal that may pass stops the turn (the rest stays due). */
    private Future<List<Checkpoint>> storeCopies(List<Checkpoint> due, List<List<StoredMessage>> unacked, int index,
                                                 List<Checkpoint> revived) {
        if (index == due.size() || state.tableIfActive() == null) {
            return Future.succeededFuture(revived);
        }
        Checkpoint checkpoint = due.get(index);
        if (checkpoint.isResolved()) {
            return storeCopies(due, unacked, index + 1, revived);
        }
        List<MessageToStore> messages = new ArrayList<>();
        int deadLetters = 0;
        for (StoredMessage message : unacked.get(index)) {
            if (message != null) {
                RevivedCopies.Copy copy = copies.copyOf(checkpoint, message);
                messages.add(copy.message());
                deadLetters += copy.isDeadLetter() ? 1 : 0;
            }
        }
        int toDeadLetter = deadLetters;
        return appendInOrder(messages, 0).compose(isStored -> {
            if (!isStored) {
                return Future.succeededFuture(revived);
            }
            meters.revived(messages.size() - toDeadLetter, toDeadLetter);
            revived.add(checkpoint);
            return storeCopies(due, unacked, index + 1, revived);
        });
    }

    private Future<Boolean> appendInOrder(List<MessageToStore> messages, int index) {
        if (index == messages.size()) {
            return Future.succeededFuture(true);
        }
        MessageToStore message = messages.get(index);
        return broker.store().append(message).compose(result -> {
            if (result.isOk()) {
                return appendInOrder(messages, index + 1);
            }
            if (result.status() == AppendStatus.MESSAGE_ILLEGAL
                || result.status() == AppendStatus.PROPERTIES_SIZE_EXCEEDED) {
                log.error("revived copy for {}-{} refused by the store and dropped: {} {}", message.topic(),
                    message.queueId(), result.status(), result.remark());
                return appendInOrder(messages, index + 1);
            }
            log.warn("revived copy for {}-{} not stored yet ({} {}); retried next turn", message.topic(),
                message.queueId(), result.status(), result.remark());
            return Future.succeededFuture(false);
        });
    }

    /** One revived record per checkpoint, per revive queue in one write; once durable the checkpoints close. */
    private Future<Void> closeRevived(InflightTable table, List<Checkpoint> revived) {
        Map<Integer, List<Checkpoint>> byReviveQueue = new LinkedHashMap<>();
        for (Checkpoint checkpoint : revived) {
            byReviveQueue.computeIfAbsent(checkpoint.reviveQueueId(), queue -> new ArrayList<>()).add(checkpoint);
        }
        List<Future<Void>> closed = new ArrayList<>();
        byReviveQueue.forEach((reviveQueueId, checkpoints) -> {
            List<ReviveRecord> records = new ArrayList<>(checkpoints.size());
            for (Checkpoint checkpoint : checkpoints) {
                records.add(new ReviveRecord.Revived(checkpoint.queue(), checkpoint.startOffset(),
                    checkpoint.popTime()));
            }
            closed.add(reviveLog.append(reviveQueueId, records).compose(appended -> {
                if (!appended.isOk()) {
                    log.warn("revived records not stored ({} {}); the checkpoints revive again next turn",
                        appended.status(), appended.remark());
                    return Future.succeededFuture();
                }
                table.noteAppended(reviveQueueId, appended.queueOffset() + records.size() - 1);
                return reviveLog.durable(appended).map(durable -> {
                    if (state.tableIfActive() == table) {
                        checkpoints.forEach(table::resolve);
                    }
                    return null;
                });
            }));
        });
        return Future.all(closed).mapEmpty();
    }
}
