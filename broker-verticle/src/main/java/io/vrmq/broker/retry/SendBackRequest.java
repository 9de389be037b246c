package io.vrmq.broker.retry;

import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * CONSUMER_SEND_MSG_BACK (36) header, RocketMQ's ConsumerSendMsgBackRequestHeader.
 *
 * @param offset            commit-log offset of the message the consumer failed to consume
 * @param delayLevel        0: the broker picks 3 + reconsume times; negative: straight to the dead-letter topic
 * @param maxReconsumeTimes the consumer's limit, or null when it sent none (the group's retryMaxTimes applies)
 */
public record SendBackRequest(long offset, String group, int delayLevel, String originMsgId, String originTopic,
                              boolean unitMode, Integer maxReconsumeTimes) {

    public static SendBackRequest decode(RemotingCommand request) {
        HeaderFields header = request.header();
        String maxTimes = header.optionalString("maxReconsumeTimes");
        return new SendBackRequest(header.requiredLong("offset"), header.requiredString("group"),
            header.requiredInt("delayLevel"), header.optionalString("originMsgId"),
            header.optionalString("originTopic"), header.optionalBoolean("unitMode", false),
            maxTimes == null || maxTimes.isBlank() ? null : header.requiredInt("maxReconsumeTimes"));
    }
}
