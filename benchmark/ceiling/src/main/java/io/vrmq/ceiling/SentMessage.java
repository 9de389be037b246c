package io.vrmq.ceiling;

import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.store.format.HostAddress;

/**
 * One SEND_MESSAGE (10) or SEND_MESSAGE_V2 (310) request, read from its header (V2 names its fields a..j) and body.
 */
record SentMessage(String topic, int queueId, int sysFlag, long bornTimestamp, int flag, String properties,
                   int reconsumeTimes, byte[] body, HostAddress bornHost) {

    static SentMessage of(RemotingCommand request, HostAddress bornHost) {
        HeaderFields header = request.header();
        boolean isV2 = request.code() == RequestCode.SEND_MESSAGE_V2;
        String properties = header.optionalString(isV2 ? "i" : "properties");
        return new SentMessage(
            header.requiredString(isV2 ? "b" : "topic"),
            header.requiredInt(isV2 ? "e" : "queueId"),
            header.optionalInt(isV2 ? "f" : "sysFlag", 0),
            header.optionalLong(isV2 ? "g" : "bornTimestamp", 0L),
            header.optionalInt(isV2 ? "h" : "flag", 0),
            properties == null ? "" : properties,
            header.optionalInt(isV2 ? "j" : "reconsumeTimes", 0),
            request.hasBody() ? request.body().getBytes() : new byte[0],
            bornHost);
    }
}
