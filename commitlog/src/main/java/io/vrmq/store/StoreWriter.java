package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.dispatch.Dispatcher;
import io.vrmq.store.flush.CommitLogFlusher;
import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.queue.QueueOffsets;
import io.vrmq.store.queue.ReservedOffsets;
import java.io.UncheckedIOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append path: checks, encoding, queue-offset assignment, the CommitLog write, then the dispatcher told (a
 * wake-up, or a round left for {@link MessageStore#dispatchBehindWriter}) and (SYNC_FLUSH) a durability future from the flusher. Under ASYNC_FLUSH every queue offset handed out is first
 * covered by a forced {@link ReservedOffsets} bound (a write only every block of offsets), so a machine crash
 * cannot make it be handed out again.
 *
 * <p>{@link #appendEach} is one writer turn for many independent sends: each message is placed as {@link #append}
 * places it, then the dispatcher is woken once and (SYNC_FLUSH) one flush waiter covers them all, so a turn costs
 * one hand-off to the flusher and one to the dispatcher however many sends it holds. The flusher is signalled at once
 * (no timer), and the shared future completes only after a force that covers the turn's last byte.
 *
 * <p>Single writer: calls must not overlap; the {@link WriteGate} shared with {@link ReplicaWriter} turns an
 * overlapping call into IllegalStateException, lets close wait for an append in progress, and refuses appends on a
 * store that took replicated bytes.
 */
final class StoreWriter {
    private static final Logger log = LoggerFactory.getLogger(StoreWriter.class);
    private static final int TRANSACTION_TYPE_MASK = 0x3 << 2;
    private static final int TRANSACTION_PREPARED = 0x1 << 2;
    private static final int TRANSACTION_ROLLBACK = 0x3 << 2;

    private final StoreConfig config;
    private final MessageEncoder encoder;
    private final CommitLog commitLog;
    private final QueueOffsets queueOffsets;
    private final ReservedOffsets reservedOffsets;
    private final boolean reservesOffsets;
    private final Dispatcher dispatcher;
    private final CommitLogFlusher flusher;
    private final RetentionService retention;
    private final InstantSource clock;
    private final WriteGate gate;
    private final EncodedMessage[] single = new EncodedMessage[1];
    private long lastStoreTimestamp;

    StoreWriter(StoreConfig config, CommitLog commitLog, QueueOffsets queueOffsets, ReservedOffsets reservedOffsets,
                Dispatcher dispatcher, CommitLogFlusher flusher, RetentionService retention, InstantSource clock,
                WriteGate gate) {
        this.config = config;
        this.encoder = new MessageEncoder(config.maxMessageSize(), config.mappedFileSizeCommitLog(),
                commitLog.storeHost());
        this.commitLog = commitLog;
        this.queueOffsets = queueOffsets;
        this.reservedOffsets = reservedOffsets;
        // SYNC_FLUSH answers a producer only after the force; see the README on what it can still lose.
        this.reservesOffsets = config.flushDiskType() == FlushDiskType.ASYNC_FLUSH;
        this.dispatcher = dispatcher;
        this.flusher = flusher;
        this.retention = retention;
        this.clock = clock;
        this.gate = gate;
    }

    AppendResult append(MessageToStore message) {
        gate.enter();
        try {
            AppendResult refusal = refusal();
            if (refusal != null) {
                return refusal;
            }
            AppendResult placed = placeOne(message);
            return placed.isOk() ? placed.withDurability(durableAfterPlacing(endOffset(placed))) : placed;
        } finally {
            gate.exit();
        }
    }

    /**
     * Appends each message as its own record (own queue offset, own result; a refused message does not affect the
     * others), in list order, in one writer turn: results in the same order.
     */
    List<AppendResult> appendEach(List<MessageToStore> messages) {
        gate.enter();
        try {
            List<AppendResult> results = new ArrayList<>(messages.size());
            AppendResult refusal = refusal();
            if (refusal != null) {
                messages.forEach(message -> results.add(refusal));
                return results;
            }
            long turnEndOffset = -1;
            for (MessageToStore message : messages) {
                AppendResult placed;
                try {
                    placed = placeOne(message);
                } catch (RuntimeException e) {
                    // A write that failed below the checks (a segment that cannot be mapped): the messages already
                    // placed keep their results, this one and the rest of the turn are refused, not lost silently.
                    log.error("append failed at commit log offset {}; refusing the rest of the turn ({} messages)",
                            commitLog.maxOffset(), messages.size() - results.size(), e);
                    AppendResult failed = AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE,
                            "append failed: " + e);
                    while (results.size() < messages.size()) {
                        results.add(failed);
                    }
                    break;
                }
                results.add(placed);
                if (placed.isOk()) {
                    turnEndOffset = endOffset(placed);
                }
            }
            if (turnEndOffset < 0) {
                return results;
            }
            CompletableFuture<FlushStatus> durability = durableAfterPlacing(turnEndOffset);
            results.replaceAll(result -> result.isOk() ? result.withDurability(durability) : result);
            return results;
        } finally {
            gate.exit();
        }
    }

    AppendResult appendBatch(List<MessageToStore> messages) {
        gate.enter();
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
                        + " bytes does not fit a mappedFileSizeCommitLog=" + config.mappedFileSizeCommitLog()
                        + " segment");
            }
            MessageToStore first = messages.get(0);
            AppendResult placed = place(encoded, encoded.length, (int) totalBytes, first.topic(), first.queueId(),
                    true);
            return placed.isOk() ? placed.withDurability(durableAfterPlacing(endOffset(placed))) : placed;
        } catch (RejectedMessageException e) {
            return AppendResult.rejected(e.status(), e.getMessage());
        } finally {
            gate.exit();
        }
    }

    /**
     * Makes queues 0 .. count - 1 of each topic known (a counter at 0 where none exists; existing counters are left
     * alone), at most {@code reservedOffsetSeedMaxQueues} known queues in all, and under ASYNC_FLUSH has the new ones
     * covered by one forced bound ahead of their first appends. Returns the queues made known. Writer.
     */
    int declareQueues(Map<String, Integer> queueCounts) {
        gate.enter();
        try {
            if (gate.isStopped() || gate.writer() == WriteGate.Writer.REPLICATION) {
                return 0;   // a replica's offsets come from its master
            }
            int room = config.reservedOffsetSeedMaxQueues() - queueOffsets.queueCount();
            Map<String, List<Integer>> added = new HashMap<>();
            int addedCount = 0;
            for (Map.Entry<String, Integer> topic : queueCounts.entrySet()) {
                for (int queueId = 0; queueId < topic.getValue() && addedCount < room; queueId++) {
                    if (queueOffsets.addIfAbsent(topic.getKey(), queueId)) {
                        added.computeIfAbsent(topic.getKey(), t -> new ArrayList<>()).add(queueId);
                        addedCount++;
                    }
                }
            }
            if (reservesOffsets && addedCount > 0) {
                reservedOffsets.coverAhead(added);
            }
            return addedCount;
        } finally {
            gate.exit();
        }
    }

    /** Forgets the topic's queue counters (topic deletion): its next append starts at offset 0 again. */
    void removeTopic(String topic) {
        queueOffsets.removeTopic(topic);
        reservedOffsets.removeTopic(topic);
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

    /** Encodes and places one message; a refusal when it cannot be stored. Inside enter/exit. */
    private AppendResult placeOne(MessageToStore message) {
        try {
            EncodedMessage encoded = encoder.encode(message);
            single[0] = encoded;
            return place(single, 1, encoded.recordBytes(), message.topic(), message.queueId(),
                    takesQueueOffset(encoded.sysFlag()));
        } catch (RejectedMessageException e) {
            return AppendResult.rejected(e.status(), e.getMessage());
        } finally {
            single[0] = null;
        }
    }

    /**
     * Tells the dispatcher (a wake-up, or a round left behind the writer) and (SYNC_FLUSH) registers one flush waiter
     * for everything below {@code endOffset}.
     */
    private CompletableFuture<FlushStatus> durableAfterPlacing(long endOffset) {
        dispatcher.afterAppend();
        return config.flushDiskType() == FlushDiskType.SYNC_FLUSH ? flusher.awaitDurable(endOffset)
                : CompletableFuture.completedFuture(FlushStatus.FLUSH_OK);
    }

    private static long endOffset(AppendResult placed) {
        return placed.commitLogOffset() + placed.sizeBytes();
    }

    /**
     * Takes queue offsets and writes the records; the result's durability is not set yet (the caller sets it once
     * per turn with {@link #durableAfterPlacing}).
     */
    private AppendResult place(EncodedMessage[] messages, int count, int totalBytes, String topic, int queueId,
                               boolean takesOffset) {
        long queueOffset = takesOffset ? queueOffsets.take(topic, queueId, count) : 0;
        if (takesOffset && reservesOffsets) {
            AppendResult refusal = reserve(topic, queueId, queueOffset, count);
            if (refusal != null) {
                return refusal;
            }
        }
        long storeTimestamp = nextStoreTimestamp();
        long commitLogOffset = commitLog.append(messages, count, totalBytes, queueOffset, storeTimestamp);
        if (commitLogOffset < 0) {
            if (takesOffset) {
                queueOffsets.giveBack(topic, queueId, count);
            }
            return AppendResult.rejected(AppendStatus.DISK_FULL, "no room for a new "
                    + config.mappedFileSizeCommitLog() + "-byte commit log segment under " + config.storePathRootDir());
        }
        gate.claim(WriteGate.Writer.OWN_APPENDS);
        return new AppendResult(AppendStatus.PUT_OK, commitLogOffset, queueOffset, count, totalBytes,
                storeTimestamp, commitLog.storeHost(), null, null);
    }

    /** Covers offsets [queueOffset, queueOffset + count) with a forced bound; a refusal when that fails. */
    private AppendResult reserve(String topic, int queueId, long queueOffset, int count) {
        try {
            reservedOffsets.cover(topic, queueId, queueOffset + count, queueOffsets);
            return null;
        } catch (UncheckedIOException e) {
            queueOffsets.giveBack(topic, queueId, count);
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, "cannot reserve queue offsets of "
                    + topic + "-" + queueId + ": " + e.getMessage());
        }
    }

    private AppendResult refusal() {
        if (gate.isStopped()) {
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, "store is closed");
        }
        if (gate.writer() == WriteGate.Writer.REPLICATION) {
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE,
                    "replica store: writes come from the master");
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
        long now = clock.millis();
        if (now < lastStoreTimestamp) {
            now = lastStoreTimestamp;
        }
        lastStoreTimestamp = now;
        return now;
    }

    /** Prepared and rolled-back transaction records take no queue offset (RocketMQ writes 0 and no entry). */
    static boolean takesQueueOffset(int sysFlag) {
        int type = sysFlag & TRANSACTION_TYPE_MASK;
        return type != TRANSACTION_PREPARED && type != TRANSACTION_ROLLBACK;
    }
}
