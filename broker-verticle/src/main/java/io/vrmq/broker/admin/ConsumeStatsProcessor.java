package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicList;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.MessageStore;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Consumer progress: GET_CONSUME_STATS (208, ConsumeStats with the object-keyed offsetTable),
 * QUERY_TOPIC_CONSUME_BY_WHO (300, GroupList) and QUERY_TOPICS_BY_CONSUMER (343, TopicList), as mqadmin
 * consumerProgress reads them. Store reads run on the reader pool.
 */
public final class ConsumeStatsProcessor {
    /** RocketMQ's QUERY_TOPICS_BY_CONSUMER; not (yet) in our RequestCode, which remoting owns. */
    static final int QUERY_TOPICS_BY_CONSUMER = 343;
    private static final String TOPIC_LIST_SEPARATOR = ";";

    private final BrokerContext broker;

    public ConsumeStatsProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_CONSUME_STATS, this::consumeStats);
        table.register(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, this::topicConsumedByWho);
        table.register(QUERY_TOPICS_BY_CONSUMER, this::topicsByConsumer);
    }

    private Future<RemotingCommand> consumeStats(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String group = header.requiredString("consumerGroup");
        Set<String> topics = topicsToReport(group, header.optionalString("topic"),
            header.optionalString("topicList"));
        // We keep no consume rate per group, so consumeTps is always 0.
        return broker.store().read(() -> offsetTable(broker.store().store(), group, topics))
            .map(table -> RemotingCommand.success(request, QueueKeyedJson.body(broker.json(),
                Map.of("consumeTps", 0.0), table)));
    }

    /**
     * RocketMQ's choice: an explicit topic list as given; else the one topic, or every topic the group committed
     * offsets on, keeping only topics the group subscribes to while it has live subscriptions.
     */
    private Set<String> topicsToReport(String group, String topic, String topicList) {
        Set<String> topics = new TreeSet<>();
        if (topicList != null && !topicList.isBlank()) {
            Arrays.stream(topicList.split(TOPIC_LIST_SEPARATOR)).map(String::trim).filter(name -> !name.isEmpty())
                .forEach(topics::add);
            return topics;
        }
        if (topic == null || topic.isBlank()) {
            topics.addAll(broker.offsets().topicsOf(group));
        } else {
            topics.add(topic);
        }
        ConsumerGroupInfo online = broker.clients().consumerGroup(group);
        if (online != null && !online.subscriptions().isEmpty()) {
            topics.removeIf(name -> online.subscription(name) == null);
        }
        return topics;
    }

    /** One OffsetWrapper per readable queue of each known topic. Runs on a reader thread. */
    private Map<MessageQueue, OffsetWrapper> offsetTable(MessageStore store, String group, Set<String> topics) {
        Map<MessageQueue, OffsetWrapper> table = new LinkedHashMap<>();
        for (String topic : topics) {
            TopicConfig config = broker.topics().get(topic);
            if (config == null) {
                continue;
            }
            for (int queueId = 0; queueId < config.readQueueNums(); queueId++) {
                long brokerOffset = Math.max(0, store.getMaxOffsetInQueue(topic, queueId));
                long consumerOffset = Math.max(0, broker.offsets().query(group, topic, queueId));
                long lastTimestamp = consumerOffset > 0
                    ? Math.max(0, store.getMessageStoreTimestamp(topic, queueId, consumerOffset - 1)) : 0;
                // No separate pull offsets are kept: RocketMQ reports max(consumerOffset, pullOffset).
                table.put(new MessageQueue(broker.config().brokerName(), queueId, topic),
                    new OffsetWrapper(brokerOffset, consumerOffset, lastTimestamp, consumerOffset));
            }
        }
        return table;
    }

    private Future<RemotingCommand> topicConsumedByWho(RemotingConnection connection, RemotingCommand request) {
        String topic = request.header().requiredString("topic");
        Set<String> groups = new TreeSet<>(broker.clients().groupsSubscribing(topic));
        groups.addAll(broker.offsets().groupsOf(topic));
        return Future.succeededFuture(RemotingCommand.success(request,
            broker.json().encode(Map.of("groupList", groups))));
    }

    private Future<RemotingCommand> topicsByConsumer(RemotingConnection connection, RemotingCommand request) {
        String group = request.header().requiredString("group");
        TopicList body = new TopicList(broker.offsets().topicsOf(group), broker.identity().brokerAddr());
        return Future.succeededFuture(RemotingCommand.success(request, broker.json().encode(body)));
    }

    /** One queue's line in ConsumeStats. */
    record OffsetWrapper(long brokerOffset, long consumerOffset, long lastTimestamp, long pullOffset) {
    }
}
