package io.vrmq.broker.pop;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.filter.FilterParseException;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.TagFilter;

/**
 * The request checks POP's processors share, with RocketMQ 5.5.0's codes and remarks (the codes are what clients act
 * on; the remarks name the numbers). Each throws a {@link RemotingCommandException} that becomes the answer.
 * Stateless; the broker's context.
 */
final class PopChecks {
    private static final String APPLY_TOPIC_URL = "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for"
        + " further details.";

    private final BrokerContext broker;

    PopChecks(BrokerContext broker) {
        this.broker = broker;
    }

    void requireBrokerReadable(String what) {
        if (!Permission.isReadable(broker.config().brokerPermission())) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, String.format(
                "the broker[%s] %s message is forbidden", broker.config().brokerIP1(), what));
        }
    }

    /** The topic for a pop, peek or notification: it exists, is readable, and has the queue (-1: all queues). */
    TopicConfig readableTopic(String topic, int queueId, RemotingConnection connection) {
        TopicConfig config = existingTopic(topic);
        if (!Permission.isReadable(config.perm())) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "the topic[" + topic
                + "] peeking message is forbidden");
        }
        if (queueId >= config.readQueueNums()) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, String.format(
                "queueId[%d] is illegal, topic:[%s] topicConfig.readQueueNums:[%d] consumer:[%s]", queueId, topic,
                config.readQueueNums(), connection.remoteAddress()));
        }
        return config;
    }

    /** The topic and queue of an ack or change: RocketMQ answers a bad queue with MESSAGE_ILLEGAL there. */
    TopicConfig ackedTopic(String topic, int queueId, RemotingConnection connection) {
        TopicConfig config = existingTopic(topic);
        if (queueId < 0 || queueId >= config.readQueueNums()) {
            throw new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL, String.format(
                "queueId[%d] is illegal, topic:[%s] topicConfig.readQueueNums:[%d] consumer:[%s]", queueId, topic,
                config.readQueueNums(), connection.remoteAddress()));
        }
        return config;
    }

    TopicConfig existingTopic(String topic) {
        TopicConfig config = broker.topics().get(topic);
        if (config == null) {
            throw new RemotingCommandException(ResponseCode.TOPIC_NOT_EXIST, String.format(
                "topic[%s] not exist, apply first please! %s", topic, APPLY_TOPIC_URL));
        }
        return config;
    }

    /** The group, created when autoCreateSubscriptionGroup allows; it must be allowed to consume. */
    SubscriptionGroupConfig consumingGroup(String group) {
        SubscriptionGroupConfig config = broker.groups().findOrCreate(group);
        if (config == null) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, String.format(
                "subscription group [%s] does not exist, %s", group, APPLY_TOPIC_URL));
        }
        if (!config.consumeEnable()) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "subscription group no permission, "
                + group);
        }
        return config;
    }

    /**
     * The broker-side filter of a pop's expression, TAG or SQL92 (RocketMQ's POP filters by SQL92 whatever
     * enablePropertyFilter says); no expression reads everything. It also filters the pop's retry topic: retried
     * messages keep the original's tag and properties.
     */
    TagFilter filterOf(String topic, String expType, String exp) {
        if (exp == null || exp.isEmpty()) {
            return TagFilter.ALL;
        }
        try {
            return broker.features().filters().storeFilter(topic, expType, exp);
        } catch (FilterParseException e) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_PARSE_FAILED,
                "parse the consumer's subscription failed: " + e.getMessage());
        }
    }

    /** An ack or change names an offset the queue holds (RocketMQ: NO_MESSAGE otherwise). In-memory bounds. */
    void requireOffsetInQueue(String topic, int queueId, long offset, boolean isMaxIncluded) {
        long min = broker.store().store().getMinOffsetInQueue(topic, queueId);
        long max = broker.store().store().getMaxOffsetInQueue(topic, queueId);
        boolean isInside = offset >= min && (isMaxIncluded ? offset <= max : offset < max);
        if (!isInside) {
            throw new RemotingCommandException(ResponseCode.NO_MESSAGE, String.format(
                "offset is illegal, key:%s@%d, commit:%d, store:%d~%d", topic, queueId, offset, min, max));
        }
    }
}
