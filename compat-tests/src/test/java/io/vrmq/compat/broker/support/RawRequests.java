package io.vrmq.compat.broker.support;

import java.util.Map;
import java.util.TreeMap;

import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.header.GetMaxOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;

/**
 * Requests built by hand with the official header classes and {@code RemotingCommand}, for what the official
 * clients cannot be made to send (thousands of suspended pulls on one connection, a message over the size limit,
 * a header field that does not parse). Stateless.
 */
public final class RawRequests {

    public static final int MAX_MESSAGES_PER_PULL = 32;
    /** RocketMQ's default topic, the one a client names when the topic may need creating. */
    private static final String DEFAULT_TOPIC = "TBW102";
    private static final int DEFAULT_TOPIC_QUEUE_COUNT = 4;

    private RawRequests() {
    }

    /**
     * PULL_MESSAGE (11) carrying its subscription (sysFlag bit 2), so the broker needs no heartbeat of the group;
     * with {@code suspendTimeoutMillis} > 0 the suspend bit is set and the broker may hold it that long.
     */
    public static RemotingCommand pull(String group, String topic, int queueId, long queueOffset,
                                       long suspendTimeoutMillis) {
        PullMessageRequestHeader header = pullHeader(group, topic, queueId, queueOffset, suspendTimeoutMillis);
        header.setSysFlag(PullSysFlag.buildSysFlag(false, suspendTimeoutMillis > 0, true, false));
        header.setSubscription("*");
        header.setExpressionType("TAG");
        return RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, header);
    }

    /** PULL_MESSAGE (11) without a subscription: the broker must know the group's subscription from heartbeats. */
    public static RemotingCommand pullWithoutSubscription(String group, String topic, int queueId, long queueOffset) {
        PullMessageRequestHeader header = pullHeader(group, topic, queueId, queueOffset, 0);
        header.setSysFlag(PullSysFlag.buildSysFlag(false, false, false, false));
        return RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, header);
    }

    /** GET_MAX_OFFSET (30): a cheap request whose answer says the connection is still served. */
    public static RemotingCommand maxOffset(String topic, int queueId) {
        GetMaxOffsetRequestHeader header = new GetMaxOffsetRequestHeader();
        header.setTopic(topic);
        header.setQueueId(queueId);
        return RemotingCommand.createRequestCommand(RequestCode.GET_MAX_OFFSET, header);
    }

    /** SEND_MESSAGE_V2 (310) with the short header the official producer sends, a UNIQ_KEY and no tags. */
    public static RemotingCommand sendV2(String producerGroup, String topic, int queueId, byte[] body) {
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        header.setProducerGroup(producerGroup);
        header.setTopic(topic);
        header.setDefaultTopic(DEFAULT_TOPIC);
        header.setDefaultTopicQueueNums(DEFAULT_TOPIC_QUEUE_COUNT);
        header.setQueueId(queueId);
        header.setSysFlag(0);
        header.setBornTimestamp(System.currentTimeMillis());
        header.setFlag(0);
        header.setProperties(MessageDecoder.messageProperties2String(Map.of(
            MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, uniqueKey(),
            MessageConst.PROPERTY_WAIT_STORE_MSG_OK, "true")));
        header.setReconsumeTimes(0);
        header.setUnitMode(false);
        header.setBatch(false);
        SendMessageRequestHeaderV2 v2 = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(header);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, v2);
        request.setBody(body);
        return request;
    }

    /**
     * SEND_MESSAGE_V2 (310) whose header fields are exactly {@code fields} (short names a..m), written as given:
     * no header object checks or fills them.
     */
    public static RemotingCommand sendV2WithRawFields(Map<String, String> fields, byte[] body) {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, null);
        fields.forEach(request::addExtField);
        request.setBody(body);
        return request;
    }

    /** The header fields {@link #sendV2} would send, as strings, for editing one of them. */
    public static Map<String, String> sendV2Fields(String producerGroup, String topic, int queueId) {
        return new TreeMap<>(Map.ofEntries(
            Map.entry("a", producerGroup), Map.entry("b", topic), Map.entry("c", DEFAULT_TOPIC),
            Map.entry("d", Integer.toString(DEFAULT_TOPIC_QUEUE_COUNT)), Map.entry("e", Integer.toString(queueId)),
            Map.entry("f", "0"), Map.entry("g", Long.toString(System.currentTimeMillis())), Map.entry("h", "0"),
            Map.entry("i", MessageDecoder.messageProperties2String(Map.of(
                MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, uniqueKey()))),
            Map.entry("j", "0"), Map.entry("k", "false"), Map.entry("m", "false")));
    }

    private static PullMessageRequestHeader pullHeader(String group, String topic, int queueId, long queueOffset,
                                                       long suspendTimeoutMillis) {
        PullMessageRequestHeader header = new PullMessageRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(topic);
        header.setQueueId(queueId);
        header.setQueueOffset(queueOffset);
        header.setMaxMsgNums(MAX_MESSAGES_PER_PULL);
        header.setCommitOffset(0L);
        header.setSuspendTimeoutMillis(suspendTimeoutMillis);
        header.setSubVersion(0L);
        return header;
    }

    private static String uniqueKey() {
        return MessageClientIDSetter.createUniqID();
    }
}
