package io.vrmq.broker.pop;

import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TagFilter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The store side of a pop (or a peek): reads the planned queues in order until the batch is full, starting each at
 * the group's offset (or where a group without one starts: RocketMQ's getInitOffset), correcting an offset that
 * left the queue (RocketMQ's "pop initial offset" repair), and rewriting retry-topic messages to carry their original
 * topic and receipt. Runs on a store reader thread; the plan and the result are immutable.
 */
final class PopReader {
    /** RocketMQ's maxTransferBytesOnMessageInMemory: one queue's read stops here (always at least one message). */
    static final int MAX_READ_BYTES = 256 * 1024;

    private final MessageStore store;
    private final boolean initPopOffsetByCheckMsgInMem;

    PopReader(MessageStore store, boolean initPopOffsetByCheckMsgInMem) {
        this.store = store;
        this.initPopOffsetByCheckMsgInMem = initPopOffsetByCheckMsgInMem;
    }

    /**
     * One queue to read. {@code committedOffset} is the group's offset, -1 when it has none (then {@code initMode}
     * decides; a retry topic always starts at its first message).
     */
    record Planned(QueueKey queue, boolean isRetry, long committedOffset, int initMode) {
    }

    /** What to stamp on retry messages handed out under their original topic (null: hand them out as stored). */
    record Receipt(String originalTopic, long popTime, long invisibleTime, int reviveQueueId, String brokerName) {
    }

    List<QueueRead> read(List<Planned> plan, int maxMessages, TagFilter filter, Receipt receipt) {
        List<QueueRead> reads = new ArrayList<>(plan.size());
        int remaining = maxMessages;
        for (Planned planned : plan) {
            if (remaining <= 0) {
                break;
            }
            QueueRead read = readQueue(planned, remaining, filter, receipt);
            reads.add(read);
            remaining -= read.messages().size();
        }
        return reads;
    }

    private QueueRead readQueue(Planned planned, int maxMessages, TagFilter filter, Receipt receipt) {
        QueueKey queue = planned.queue();
        boolean isOffsetSet = planned.committedOffset() < 0;
        long offset = isOffsetSet ? initOffset(planned) : planned.committedOffset();
        GetMessageResult result = store.getMessages(queue.topic(), queue.queueId(), offset, maxMessages,
            MAX_READ_BYTES, filter);
        if (isOutsideQueue(result.status()) && result.nextBeginOffset() != offset) {
            offset = result.nextBeginOffset();
            isOffsetSet = true;
            result = store.getMessages(queue.topic(), queue.queueId(), offset, maxMessages, MAX_READ_BYTES, filter);
        }
        List<ByteBuffer> records = new ArrayList<>(result.messages().size());
        for (FoundMessage message : result.messages()) {
            records.add(planned.isRetry() && receipt != null ? RetryRecordRewriter.rewrite(message.record(),
                receipt.originalTopic(), ExtraInfo.format(offset, receipt.popTime(), receipt.invisibleTime(),
                    receipt.reviveQueueId(), queue.topic(), receipt.brokerName(), queue.queueId(),
                    message.queueOffset())) : message.record());
        }
        return new QueueRead(queue, planned.isRetry(), result.status(), offset, isOffsetSet,
            Math.max(result.nextBeginOffset(), offset), result.maxOffset(), result.messages(), records);
    }

    /** RocketMQ's getInitOffset. */
    private long initOffset(Planned planned) {
        QueueKey queue = planned.queue();
        long minOffset = store.getMinOffsetInQueue(queue.topic(), queue.queueId());
        if (planned.initMode() == PopMessageRequest.INIT_MODE_MIN || planned.isRetry()) {
            return minOffset;
        }
        if (initPopOffsetByCheckMsgInMem && minOffset <= 0 && isFirstMessageInMemory(queue)) {
            return 0;
        }
        // "Pop the last one": a group joining late still gets the newest message.
        return Math.max(0, store.getMaxOffsetInQueue(queue.topic(), queue.queueId()) - 1);
    }

    private boolean isFirstMessageInMemory(QueueKey queue) {
        GetMessageResult first = store.getMessages(queue.topic(), queue.queueId(), 0, 1, MAX_READ_BYTES,
            TagFilter.ALL);
        return first.status() == GetMessageStatus.FOUND && !first.suggestPullingFromSlave();
    }

    /** The stored offset is not inside the queue (retention, a truncation): RocketMQ resets it to where reads go on. */
    private static boolean isOutsideQueue(GetMessageStatus status) {
        return status == GetMessageStatus.OFFSET_TOO_SMALL || status == GetMessageStatus.OFFSET_OVERFLOW_BADLY
            || status == GetMessageStatus.OFFSET_FOUND_NULL;
    }
}
