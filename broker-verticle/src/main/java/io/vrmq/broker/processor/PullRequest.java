package io.vrmq.broker.processor;

import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;

/** PULL_MESSAGE (11) / LITE_PULL_MESSAGE (361) header. sysFlag bits: 1 commit offset, 2 suspend, 4 subscription. */
public record PullRequest(String consumerGroup, String topic, int queueId, long queueOffset, int maxMsgNums,
                          int maxMsgBytes, int sysFlag, long commitOffset, long suspendTimeoutMillis,
                          String subscription, long subVersion, String expressionType) {
    public static final int FLAG_COMMIT_OFFSET = 1;
    public static final int FLAG_SUSPEND = 1 << 1;
    public static final int FLAG_SUBSCRIPTION = 1 << 2;
    private static final int DEFAULT_MAX_MSG_BYTES = Integer.MAX_VALUE;

    public static PullRequest decode(RemotingCommand request) {
        HeaderFields header = request.header();
        return new PullRequest(header.requiredString("consumerGroup"), header.requiredString("topic"),
            header.requiredInt("queueId"), header.requiredLong("queueOffset"), header.requiredInt("maxMsgNums"),
            header.optionalInt("maxMsgBytes", DEFAULT_MAX_MSG_BYTES), header.requiredInt("sysFlag"),
            header.optionalLong("commitOffset", 0), header.optionalLong("suspendTimeoutMillis", 0),
            header.optionalString("subscription"), header.optionalLong("subVersion", 0),
            header.optionalString("expressionType"));
    }

    public boolean hasCommitOffset() {
        return (sysFlag & FLAG_COMMIT_OFFSET) != 0;
    }

    public boolean isSuspend() {
        return (sysFlag & FLAG_SUSPEND) != 0;
    }

    public boolean hasSubscription() {
        return (sysFlag & FLAG_SUBSCRIPTION) != 0;
    }
}
