package io.vrmq.broker.pop;

import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * POP_MESSAGE (200050) header, RocketMQ's PopMessageRequestHeader. A negative queueId means every queue of the
 * topic; bornTime 0 means "now" (the broker sets it, as RocketMQ does, so a held pop keeps its deadline).
 *
 * @param initMode where a group without an offset starts: 0 MIN (the queue's first message), 1 MAX (its last)
 */
public record PopMessageRequest(String consumerGroup, String topic, int queueId, int maxMsgNums, long invisibleTime,
                                long pollTime, long bornTime, int initMode, String expType, String exp,
                                boolean isOrder, String attemptId) {
    public static final int INIT_MODE_MIN = 0;
    public static final int ALL_QUEUES = -1;
    /** RocketMQ's isTimeoutTooMuch: a pop that arrives this long after its deadline is refused at once. */
    private static final long TOO_LATE_MS = 500;

    public static PopMessageRequest decode(RemotingCommand request, long nowMs) {
        HeaderFields header = request.header();
        long bornTime = header.requiredLong("bornTime");
        int queueId = header.requiredInt("queueId");
        return new PopMessageRequest(header.requiredString("consumerGroup"), header.requiredString("topic"),
            queueId < 0 ? ALL_QUEUES : queueId, header.requiredInt("maxMsgNums"), header.requiredLong("invisibleTime"),
            header.requiredLong("pollTime"), bornTime == 0 ? nowMs : bornTime, header.requiredInt("initMode"),
            header.optionalString("expType"), header.optionalString("exp"), header.optionalBoolean("order", false),
            header.optionalString("attemptId"));
    }

    /** The same request as re-run after a long-poll wake-up (its bornTime stays fixed). */
    public long deadlineMs() {
        return bornTime + pollTime;
    }

    public boolean isTimeoutTooMuch(long nowMs) {
        return nowMs - bornTime - pollTime > TOO_LATE_MS;
    }

    public boolean isAllQueues() {
        return queueId == ALL_QUEUES;
    }

    public boolean hasExpression() {
        return exp != null && !exp.isEmpty();
    }
}
