package io.vrmq.broker.processor;

import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;

/**
 * A send's custom header, from either form: SEND_MESSAGE (10) uses the long field names, SEND_MESSAGE_V2 (310),
 * SEND_BATCH_MESSAGE (320) and SEND_REPLY_MESSAGE_V2 (325) the one-letter names the official client actually sends.
 */
public record SendRequest(String producerGroup, String topic, String defaultTopic, int defaultTopicQueueNums,
                          int queueId, int sysFlag, long bornTimestamp, int flag, String properties,
                          int reconsumeTimes, int maxReconsumeTimes, boolean isBatch) {

    public static SendRequest decode(RemotingCommand request) {
        HeaderFields header = request.header();
        boolean isShortForm = request.code() == RequestCode.SEND_MESSAGE_V2
            || request.code() == RequestCode.SEND_BATCH_MESSAGE || request.code() == RequestCode.SEND_REPLY_MESSAGE_V2;
        Names names = isShortForm ? Names.SHORT : Names.LONG;
        return new SendRequest(
            header.requiredString(names.producerGroup),
            header.requiredString(names.topic),
            header.requiredString(names.defaultTopic),
            header.requiredInt(names.defaultTopicQueueNums),
            header.requiredInt(names.queueId),
            header.requiredInt(names.sysFlag),
            header.requiredLong(names.bornTimestamp),
            header.requiredInt(names.flag),
            header.optionalString(names.properties),
            header.optionalInt(names.reconsumeTimes, 0),
            header.optionalInt(names.maxReconsumeTimes, -1),
            header.optionalBoolean(names.batch, false) || request.code() == RequestCode.SEND_BATCH_MESSAGE);
    }

    public SendRequest withQueueId(int newQueueId) {
        return new SendRequest(producerGroup, topic, defaultTopic, defaultTopicQueueNums, newQueueId, sysFlag,
            bornTimestamp, flag, properties, reconsumeTimes, maxReconsumeTimes, isBatch);
    }

    /** Field names of the two header forms. */
    private record Names(String producerGroup, String topic, String defaultTopic, String defaultTopicQueueNums,
                         String queueId, String sysFlag, String bornTimestamp, String flag, String properties,
                         String reconsumeTimes, String maxReconsumeTimes, String batch) {
        static final Names LONG = new Names("producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums",
            "queueId", "sysFlag", "bornTimestamp", "flag", "properties", "reconsumeTimes", "maxReconsumeTimes",
            "batch");
        static final Names SHORT = new Names("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "l", "m");
    }
}
