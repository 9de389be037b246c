package io.vrmq.broker.pop;

import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * ACK_MESSAGE (200051) and CHANGE_MESSAGE_INVISIBLETIME (200053) headers (RocketMQ's AckMessageRequestHeader and
 * ChangeInvisibleTimeRequestHeader): {@code topic} is the topic the message was popped from (its retry topic for a
 * retried message), {@code offset} the message's queue offset there, {@code extraInfo} its receipt.
 *
 * @param invisibleTime CHANGE only: the new invisible time from now; -1 for an ACK
 * @param isSuspend     CHANGE only: come back without counting one more reconsume
 */
public record AckRequest(String consumerGroup, String topic, int queueId, String extraInfo, long offset,
                         long invisibleTime, boolean isSuspend) {
    public static AckRequest decodeAck(RemotingCommand request) {
        HeaderFields header = request.header();
        return new AckRequest(header.requiredString("consumerGroup"), header.requiredString("topic"),
            header.requiredInt("queueId"), header.requiredString("extraInfo"), header.requiredLong("offset"), -1,
            false);
    }

    public static AckRequest decodeChange(RemotingCommand request) {
        HeaderFields header = request.header();
        return new AckRequest(header.requiredString("consumerGroup"), header.requiredString("topic"),
            header.requiredInt("queueId"), header.requiredString("extraInfo"), header.requiredLong("offset"),
            header.requiredLong("invisibleTime"), header.optionalBoolean("suspend", false));
    }
}
