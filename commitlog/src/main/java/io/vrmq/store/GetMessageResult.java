package io.vrmq.store;

import java.util.List;

/**
 * What a read by queue offset found.
 *
 * @param nextBeginOffset where the next read of this queue should start
 * @param minOffset       the queue's min offset at the time of the read
 * @param maxOffset       the queue's max offset (next offset to be assigned) at the time of the read
 * @param messages        records in queue-offset order (see {@link FoundMessage} for how long they stay valid)
 * @param suggestPullingFromSlave RocketMQ's hint for the pull reply: the last message read lies further behind the
 *                        CommitLog's max offset than {@code accessMessageInMemoryMaxRatio} percent of physical memory,
 *                        so it (and what follows) is probably read from disk; false when nothing was read
 */
public record GetMessageResult(GetMessageStatus status, long nextBeginOffset, long minOffset, long maxOffset,
                               List<FoundMessage> messages, int totalBytes, boolean suggestPullingFromSlave) {

    static GetMessageResult empty(GetMessageStatus status, long nextBeginOffset, long minOffset, long maxOffset) {
        return new GetMessageResult(status, nextBeginOffset, minOffset, maxOffset, List.of(), 0, false);
    }
}
