package io.vrmq.broker.pop;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.broker.processor.DeliveryRouting;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.MessageToStore;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The message an expired, unacked pop puts back (RocketMQ's PopReviveService.reviveRetry): into the group's POP
 * retry topic (created on demand with one queue, the group starting at its offset 0), with the stored body, flag,
 * sys flag, born time and properties, plus 1ST_POP_TIME and ORIGIN_GROUP, and reconsume times + 1 (not for a
 * suspended change). Ours on top: a message that already had the group's retryMaxTimes reconsumes goes to {@code
 * %DLQ%group} instead, with the properties a send-back to the DLQ gives (RocketMQ leaves that to its proxy, which
 * forwards such messages on receipt). Stateless apart from the topic and offset tables; the broker's context.
 */
final class RevivedCopies {
    private static final int RETRY_QUEUE_ID = 0;

    private final BrokerContext broker;
    private final PopConfig config;
    private final DeliveryRouting routing;
    private final InetSocketAddress storeHost;

    RevivedCopies(BrokerContext broker, PopConfig config, DeliveryRouting routing) {
        this.broker = broker;
        this.config = config;
        this.routing = routing;
        String[] hostPort = broker.identity().brokerAddr().split(":");
        this.storeHost = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
    }

    /** A copy to store, and whether it is a dead letter. */
    record Copy(MessageToStore message, boolean isDeadLetter) {
    }

    Copy copyOf(Checkpoint checkpoint, StoredMessage message) {
        String group = checkpoint.queue().group();
        String poppedTopic = checkpoint.queue().topic();
        String originTopic = PopNames.originTopic(poppedTopic, group);
        String topic = originTopic != null ? originTopic : poppedTopic;
        Map<String, String> properties = message.propertyMap();
        if (!checkpoint.isSuspend() && message.reconsumeTimes() >= retryMaxTimes(group)) {
            return new Copy(deadLetter(group, topic, message, properties), true);
        }
        String retryTopic = originTopic != null ? poppedTopic
            : PopNames.retryTopic(topic, group, config.enableRetryTopicV2());
        ensureRetryTopic(retryTopic, group);
        if (message.reconsumeTimes() == 0 || !properties.containsKey(MessageConst.FIRST_POP_TIME)) {
            properties.put(MessageConst.FIRST_POP_TIME, Long.toString(checkpoint.popTime()));
        }
        properties.put(MessageConst.ORIGIN_GROUP, group);
        int reconsumeTimes = checkpoint.isSuspend() ? message.reconsumeTimes() : message.reconsumeTimes() + 1;
        return new Copy(copy(message, retryTopic, RETRY_QUEUE_ID, properties, reconsumeTimes), false);
    }

    private MessageToStore deadLetter(String group, String topic, StoredMessage message,
                                      Map<String, String> properties) {
        properties.putIfAbsent(MessageConst.RETRY_TOPIC, topic);
        String originId = properties.get(MessageConst.ORIGIN_MESSAGE_ID);
        if (originId == null || originId.isBlank()) {
            properties.put(MessageConst.ORIGIN_MESSAGE_ID, message.offsetMsgId());
        }
        properties.put(MessageConst.DLQ_ORIGIN_TOPIC, topic);
        properties.put(MessageConst.DLQ_ORIGIN_MESSAGE_ID, properties.getOrDefault(
            MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, properties.get(MessageConst.ORIGIN_MESSAGE_ID)));
        DeliveryRouting.Destination dlq = routing.toDeadLetter(group, properties);
        return copy(message, dlq.topic(), dlq.queueId(), properties, message.reconsumeTimes() + 1);
    }

    private int retryMaxTimes(String group) {
        SubscriptionGroupConfig config = broker.groups().findOrCreate(group);
        return config == null ? broker.config().maxReconsumeTimes() : config.retryMaxTimes();
    }

    /** RocketMQ's addRetryTopicIfNotExist and initPopRetryOffset. */
    private void ensureRetryTopic(String retryTopic, String group) {
        broker.topics().putIfAbsent(TopicConfig.of(retryTopic, 1, Permission.READ_WRITE));
        if (broker.offsets().query(group, retryTopic, RETRY_QUEUE_ID) < 0) {
            broker.offsets().commit(group, retryTopic, RETRY_QUEUE_ID, 0);
        }
    }

    /** RocketMQ's re-put: the broker is the born host of the copy. */
    private MessageToStore copy(StoredMessage message, String topic, int queueId, Map<String, String> properties,
                                int reconsumeTimes) {
        return new MessageToStore(topic, queueId, message.flag(), message.body(),
            MessageProperties.format(properties), message.sysFlag(), message.bornTimestamp(), storeHost,
            reconsumeTimes, 0);
    }
}
