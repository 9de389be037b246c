package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.commitlog.RecordScanner;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import io.vrmq.store.queue.QueueOffsets;
import java.nio.ByteBuffer;

/**
 * Recomputes the queue offsets the writer hands out: each queue's ConsumeQueue max offset, raised past every record
 * the dispatcher has not reached yet (records held back by the confirm-offset gate, or not dispatched so far). So an
 * offset taken by a record already in the CommitLog is never handed out again, whether or not its ConsumeQueue entry
 * exists. Runs on the opening thread (recovery) or the writer (a switch to own appends); the dispatcher may run
 * meanwhile: {@code dispatchedOffset} must be read before the ConsumeQueues are.
 */
final class QueueOffsetsRebuild {
    private QueueOffsetsRebuild() {
    }

    /**
     * @param dispatchedOffset the dispatcher's offset, read before this call: every record below it is in a
     *                         ConsumeQueue
     */
    static QueueOffsets rebuild(CommitLog commitLog, ConsumeQueueTable queues, long dispatchedOffset,
                                QueueOffsets into) {
        into.resetAll();
        for (ConsumeQueue queue : queues.all()) {
            into.seed(queue.topic(), queue.queueId(), queue.maxOffset());
        }
        RecordScanner scanner = new RecordScanner(commitLog.segments(),
                Math.max(dispatchedOffset, commitLog.minOffset()));
        long maxOffset = commitLog.maxOffset();
        RecordScanner.Step step;
        while ((step = scanner.next(maxOffset)) != RecordScanner.Step.END) {
            if (step == RecordScanner.Step.RECORD || scanner.isHeaderReadable()) {
                raise(into, scanner.segment().buffer(), scanner.position());
            }
        }
        return into;
    }

    private static void raise(QueueOffsets into, ByteBuffer buffer, int position) {
        if (!StoreWriter.takesQueueOffset(RecordReader.sysFlag(buffer, position))) {
            return;
        }
        long queueOffset = RecordReader.queueOffset(buffer, position);
        int queueId = RecordReader.queueId(buffer, position);
        if (queueOffset >= 0 && queueId >= 0) {
            into.raise(RecordReader.topic(buffer, position), queueId, queueOffset + 1);
        }
    }
}
