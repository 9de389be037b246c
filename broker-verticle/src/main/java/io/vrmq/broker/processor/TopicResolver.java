package io.vrmq.broker.processor;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

/**
 * Finds the topic a send goes to, creating it as RocketMQ does: from the default topic (TBW102) when
 * autoCreateTopicEnable allows, and retry and DLQ topics on demand. Refusals are RocketMQ's codes and remarks.
 * Thread-safe.
 */
public final class TopicResolver {
    private final BrokerContext broker;

    public TopicResolver(BrokerContext broker) {
        this.broker = broker;
    }

    /** The writable topic for a send, or a RemotingCommandException with the refusal. */
    public TopicConfig forSend(String topic, String defaultTopic, int defaultQueueNums, int topicSysFlag) {
        if (!Permission.isWritable(broker.config().brokerPermission())) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "the broker["
                + broker.identity().brokerAddr() + "] sending message is forbidden");
        }
        String invalid = TopicNames.invalidReason(topic);
        if (invalid != null) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, invalid);
        }
        if (TopicNames.isSendForbidden(topic)) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "Sending message to topic[" + topic
                + "] is forbidden.");
        }
        TopicConfig config = broker.topics().get(topic);
        if (config == null && TopicNames.isRetryTopic(topic)) {
            config = retryTopic(topic.substring(TopicNames.RETRY_GROUP_TOPIC_PREFIX.length()));
        }
        if (config == null && broker.config().autoCreateTopicEnable() && defaultTopic != null) {
            config = broker.topics().createFromDefault(topic, defaultTopic, defaultQueueNums, topicSysFlag);
        }
        if (config == null) {
            throw new RemotingCommandException(ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic
                + "] not exist, apply first please!");
        }
        if (!Permission.isWritable(config.perm())) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "the topic[" + topic
                + "] sending message is forbidden");
        }
        return config;
    }

    /** The group's retry topic, created with one read-write queue if absent. */
    public TopicConfig retryTopic(String group) {
        return broker.topics().putIfAbsent(TopicConfig.of(TopicNames.retryTopic(group), 1, Permission.READ_WRITE));
    }

    /** The group's dead-letter topic, created with one queue if absent. */
    public TopicConfig dlqTopic(String group) {
        return broker.topics().putIfAbsent(TopicConfig.of(TopicNames.dlqTopic(group), 1, Permission.READ_WRITE));
    }

    /** The queue to write: the requested one, or a random writable one when it is negative. */
    public static int queueFor(TopicConfig topic, int requestedQueueId, String producerGroup) {
        if (requestedQueueId < 0) {
            return java.util.concurrent.ThreadLocalRandom.current().nextInt(topic.writeQueueNums());
        }
        int valid = Math.max(topic.writeQueueNums(), topic.readQueueNums());
        if (requestedQueueId >= valid) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "request queueId[" + requestedQueueId
                + "] is illegal, topic " + topic.topicName() + " has " + valid + " queues. Producer: "
                + producerGroup);
        }
        return requestedQueueId;
    }
}
