package io.vrmq.client;

import io.vrmq.remoting.message.MessageConst;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A message as a consumer receives it: the stored record decoded (RocketMQ's MessageExt). {@link #msgId()} is the
 * producer's UNIQ_KEY when there is one, else the offset message id, as the official client reports it.
 * Immutable value (the body array is shared: do not change it).
 *
 * @param queueOffset      entry number of the message in its consume queue
 * @param commitLogOffset  byte position of the record in the broker's whole commit log
 * @param offsetMsgId      storeHost + commitLogOffset in hex, the broker's id of the stored record
 * @param brokerName       the broker group the message was pulled from (null for a decoded record alone)
 */
public record ReceivedMessage(String topic, int queueId, long queueOffset, long commitLogOffset, int flag,
                              int sysFlag, byte[] body, Map<String, String> properties, long bornTimestamp,
                              InetSocketAddress bornHost, long storeTimestamp, InetSocketAddress storeHost,
                              int reconsumeTimes, long preparedTransactionOffset, int storeSizeBytes, int bodyCrc,
                              String offsetMsgId, String brokerName) {
    public ReceivedMessage {
        properties = Map.copyOf(properties);
    }

    public String msgId() {
        String uniqKey = properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        return uniqKey != null ? uniqKey : offsetMsgId;
    }

    public String property(String name) {
        return properties.get(name);
    }

    public String tags() {
        return properties.get(MessageConst.TAGS);
    }

    public String keys() {
        return properties.get(MessageConst.KEYS);
    }

    public MessageQueue messageQueue() {
        return new MessageQueue(topic, brokerName, queueId);
    }

    public ReceivedMessage withTopic(String newTopic) {
        return new ReceivedMessage(newTopic, queueId, queueOffset, commitLogOffset, flag, sysFlag, body, properties,
            bornTimestamp, bornHost, storeTimestamp, storeHost, reconsumeTimes, preparedTransactionOffset,
            storeSizeBytes, bodyCrc, offsetMsgId, brokerName);
    }

    public ReceivedMessage withBrokerName(String name) {
        return new ReceivedMessage(topic, queueId, queueOffset, commitLogOffset, flag, sysFlag, body, properties,
            bornTimestamp, bornHost, storeTimestamp, storeHost, reconsumeTimes, preparedTransactionOffset,
            storeSizeBytes, bodyCrc, offsetMsgId, name);
    }

    public ReceivedMessage withReconsumeTimes(int times) {
        return new ReceivedMessage(topic, queueId, queueOffset, commitLogOffset, flag, sysFlag, body, properties,
            bornTimestamp, bornHost, storeTimestamp, storeHost, times, preparedTransactionOffset, storeSizeBytes,
            bodyCrc, offsetMsgId, brokerName);
    }

    public ReceivedMessage withProperties(Map<String, String> newProperties) {
        return new ReceivedMessage(topic, queueId, queueOffset, commitLogOffset, flag, sysFlag, body, newProperties,
            bornTimestamp, bornHost, storeTimestamp, storeHost, reconsumeTimes, preparedTransactionOffset,
            storeSizeBytes, bodyCrc, offsetMsgId, brokerName);
    }

    @Override
    public String toString() {
        return "ReceivedMessage[topic=" + topic + ", queueId=" + queueId + ", queueOffset=" + queueOffset
            + ", msgId=" + msgId() + ", reconsumeTimes=" + reconsumeTimes + ", properties=" + properties
            + ", bodyBytes=" + body.length + "]";
    }
}
