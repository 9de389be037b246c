package io.vrmq.broker.pop;

import java.util.List;
import java.util.Map;

/**
 * One record of the revive log ({@code rmq_sys_REVIVE_LOG_<cluster>}), the durable side of POP: every change of
 * in-flight state is one of these, appended before the client hears of it, so that a restart (or a slave taking
 * over, which has the same CommitLog) rebuilds the state by reading the log from the revive offset on. The bodies
 * are JSON under RocketMQ's field names where it has the record ({@link ReviveRecordCodec}).
 */
public sealed interface ReviveRecord {
    /** The store tag of the record, which tells the kinds apart. */
    String tag();

    /**
     * A non-orderly pop of one queue (RocketMQ's PopCheckPoint, tag "ck"); {@code nextOffset} is ours: the pop offset
     * after it, which a restart restores.
     */
    record Pop(QueueKey queue, long startOffset, long popTime, long invisibleTime, int[] diffs, long nextOffset,
               boolean isSuspend, String brokerName) implements ReviveRecord {
        public String tag() {
            return "ck";
        }
    }

    /** Acks of messages of one pop (RocketMQ's AckMsg "ack" for one offset, BatchAckMsg "bAck" for several). */
    record Ack(QueueKey queue, long startOffset, long popTime, List<Long> offsets, String brokerName)
        implements ReviveRecord {
        public String tag() {
            return offsets.size() == 1 ? "ack" : "bAck";
        }
    }

    /** Ours: the unacked messages of a pop were put into the retry topic (or the DLQ); the pop is closed. */
    record Revived(QueueKey queue, long startOffset, long popTime) implements ReviveRecord {
        public String tag() {
            return "rv";
        }
    }

    /** Ours: an orderly pop of one queue, which replaces the queue's previous one. */
    record OrderPop(QueueKey queue, String attemptId, long popTime, long invisibleTime, long[] offsets,
                    Map<Long, Integer> consumedCounts, String brokerName) implements ReviveRecord {
        public String tag() {
            return "ock";
        }
    }

    /** Ours: an orderly ack, with the consumer offset it committed. */
    record OrderAck(QueueKey queue, long popTime, long offset, long committedOffset) implements ReviveRecord {
        public String tag() {
            return "oack";
        }
    }

    /** Ours: an orderly message's invisible time was changed. */
    record OrderChange(QueueKey queue, long popTime, long offset, long nextVisibleMs) implements ReviveRecord {
        public String tag() {
            return "ochg";
        }
    }
}
