package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.TagFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds the {@link InflightTable} when this broker becomes master (at start, or after a failover: a slave has
 * the same revive log in its copy of the CommitLog): each revive queue is read from its revive offset to its end and
 * every record replayed, in log order. Checkpoints come back with their acks, revived ones are closed again, orderly
 * pops are restored, and a pop offset or orderly commit that the consumer-offset file had not caught up with yet is
 * taken from the records (a pop offset only ever moves forward here). Reads run on a store reader thread, a batch at
 * a time; the replay runs on the broker's context.
 */
final class InflightRecovery {
    private static final Logger log = LoggerFactory.getLogger(InflightRecovery.class);
    private static final int RECORDS_PER_READ = 256;

    private final BrokerContext broker;
    private final String reviveTopic;
    private final ReviveRecordCodec codec;

    InflightRecovery(BrokerContext broker, String reviveTopic, ReviveRecordCodec codec) {
        this.broker = broker;
        this.reviveTopic = reviveTopic;
        this.codec = codec;
    }

    /** One record read back with its revive-queue offset. */
    private record Entry(long logOffset, ReviveRecord record) {
    }

    /** A batch read from one revive queue. */
    private record Batch(List<Entry> entries, long nextOffset, boolean isEnd) {
    }

    /** The rebuilt table; {@code reviveQueueCount} queues are read (more when the topic has more). */
    Future<InflightTable> recover(int reviveQueueCount, PopInflight counts, InflightTable.ProgressSink sink) {
        long[] starts = new long[reviveQueueCount];
        for (int queue = 0; queue < reviveQueueCount; queue++) {
            starts[queue] = startOffset(queue);
        }
        counts.clear();
        InflightTable table = new InflightTable(starts, counts, sink);
        long begin = System.currentTimeMillis();
        Future<Void> replayed = Future.succeededFuture();
        for (int queue = 0; queue < reviveQueueCount; queue++) {
            int reviveQueueId = queue;
            replayed = replayed.compose(done -> replayQueue(table, reviveQueueId, starts[reviveQueueId], 0));
        }
        return replayed.map(done -> {
            log.info("POP in-flight state rebuilt from {} in {} ms: {} checkpoints open, {} messages in flight",
                reviveTopic, System.currentTimeMillis() - begin, table.checkpointCount(), counts.total());
            return table;
        });
    }

    /**
     * The stored revive offset, inside the queue: below its first record (retention) the lost part is skipped; above
     * its end (a slave whose copy of the log lags the offsets it copied) reading starts at the end, so that records
     * written from now on are never above the progress a restart starts from. In-memory bounds, no file access.
     */
    private long startOffset(int reviveQueueId) {
        long stored = broker.offsets().query(PopNames.REVIVE_GROUP, reviveTopic, reviveQueueId);
        long min = broker.store().store().getMinOffsetInQueue(reviveTopic, reviveQueueId);
        long max = broker.store().store().getMaxOffsetInQueue(reviveTopic, reviveQueueId);
        if (stored < 0) {
            return min;
        }
        if (stored < min) {
            log.warn("revive queue {}: revive offset {} is below its first record {} (retention removed it); the "
                + "checkpoints there are lost", reviveQueueId, stored, min);
            return min;
        }
        if (stored > max) {
            log.warn("revive queue {}: revive offset {} is beyond its end {}; reading from the end", reviveQueueId,
                stored, max);
            return max;
        }
        return stored;
    }

    private Future<Void> replayQueue(InflightTable table, int reviveQueueId, long offset, long replayedSoFar) {
        return broker.store().read(() -> readBatch(reviveQueueId, offset)).compose(batch -> {
            for (Entry entry : batch.entries()) {
                apply(table, reviveQueueId, entry);
            }
            long replayed = replayedSoFar + batch.entries().size();
            if (batch.isEnd()) {
                if (replayed > 0) {
                    log.info("revive queue {}: {} records replayed from offset {}", reviveQueueId, replayed,
                        offset - replayedSoFar);
                }
                return Future.succeededFuture();
            }
            return replayQueue(table, reviveQueueId, batch.nextOffset(), replayed);
        });
    }

    /** Reader thread. */
    private Batch readBatch(int reviveQueueId, long offset) {
        GetMessageResult result = broker.store().store().getMessages(reviveTopic, reviveQueueId, offset,
            RECORDS_PER_READ, Integer.MAX_VALUE, TagFilter.ALL);
        if (result.status() != GetMessageStatus.FOUND) {
            // Damaged or missing records are skipped; anything else is the queue's end.
            boolean isSkip = result.status() == GetMessageStatus.OFFSET_FOUND_NULL && result.nextBeginOffset() > offset;
            return new Batch(List.of(), Math.max(offset, result.nextBeginOffset()), !isSkip);
        }
        List<Entry> entries = new ArrayList<>(result.messages().size());
        for (FoundMessage found : result.messages()) {
            StoredMessage message = StoredMessage.decode(found.record());
            String tag = message.propertyMap().get(MessageConst.TAGS);
            ReviveRecord record = tag == null ? null : codec.decode(tag, message.body());
            if (record == null) {
                log.warn("revive queue {} offset {}: not a POP record of ours (tag {}); skipped", reviveQueueId,
                    found.queueOffset(), tag);
            }
            entries.add(new Entry(found.queueOffset(), record));
        }
        return new Batch(entries, result.nextBeginOffset(), false);
    }

    private void apply(InflightTable table, int reviveQueueId, Entry entry) {
        ReviveRecord record = entry.record();
        long logOffset = entry.logOffset();
        if (record == null) {
            table.noteAppended(reviveQueueId, logOffset);
            return;
        }
        if (record instanceof ReviveRecord.Pop pop) {
            table.pin(reviveQueueId, logOffset);
            table.add(new Checkpoint(pop.queue(), pop.startOffset(), pop.popTime(), pop.invisibleTime(), pop.diffs(),
                pop.nextOffset(), reviveQueueId, logOffset, pop.isSuspend(), table.nextSequence()));
            if (pop.nextOffset() >= 0) {
                moveForward(pop.queue(), pop.nextOffset());
            }
            return;
        }
        table.noteAppended(reviveQueueId, logOffset);
        if (record instanceof ReviveRecord.Ack ack) {
            Checkpoint checkpoint = table.find(ack.queue(), ack.startOffset(), ack.popTime());
            for (long offset : ack.offsets()) {
                int index = checkpoint == null ? -1 : checkpoint.indexOf(offset);
                if (index >= 0) {
                    table.ack(checkpoint, index);
                }
            }
        } else if (record instanceof ReviveRecord.Revived revived) {
            Checkpoint checkpoint = table.find(revived.queue(), revived.startOffset(), revived.popTime());
            if (checkpoint != null) {
                table.resolve(checkpoint);
            }
        } else if (record instanceof ReviveRecord.OrderPop pop) {
            table.pin(reviveQueueId, logOffset);
            table.putOrder(new OrderCheckpoint(pop.queue(), pop.attemptId(), pop.popTime(), pop.invisibleTime(),
                pop.offsets(), pop.consumedCounts(), reviveQueueId, logOffset));
        } else if (record instanceof ReviveRecord.OrderAck ack) {
            OrderCheckpoint pop = table.order(ack.queue());
            if (pop != null) {
                table.commitOrder(pop, ack.offset(), ack.popTime());
            }
            moveForward(ack.queue(), ack.committedOffset());
        } else if (record instanceof ReviveRecord.OrderChange change) {
            OrderCheckpoint pop = table.order(change.queue());
            if (pop != null) {
                pop.changeVisibleTime(change.offset(), change.popTime(), change.nextVisibleMs());
            }
        }
    }

    private void moveForward(QueueKey queue, long offset) {
        if (offset > broker.offsets().query(queue.group(), queue.topic(), queue.queueId())) {
            broker.offsets().commit(queue.group(), queue.topic(), queue.queueId(), offset);
        }
    }
}
