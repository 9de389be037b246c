package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.TopicList;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Consumer progress: GET_CONSUME_STATS (208, ConsumeStats with the object-keyed offsetTable),
 * QUERY_TOPIC_CONSUME_BY_WHO (300, GroupList) and QUERY_TOPICS_BY_CONSUMER (343, TopicList), as mqadmin
 * consumerProgress reads them; the figures are {@link ConsumeProgress}'s, which the HTTP admin API shares. Store
 * reads run on the reader pool.
 */
public final class ConsumeStatsProcessor {

    private final BrokerContext broker;
    private final ConsumeProgress progress;

    public ConsumeStatsProcessor(BrokerContext broker) {
        this.broker = broker;
        this.progress = new ConsumeProgress(broker);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_CONSUME_STATS, this::consumeStats);
        table.register(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, this::topicConsumedByWho);
        table.register(RequestCode.QUERY_TOPICS_BY_CONSUMER, this::topicsByConsumer);
    }

    private Future<RemotingCommand> consumeStats(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String group = header.requiredString("consumerGroup");
        Set<String> topics = progress.topicsToReport(group, header.optionalString("topic"),
            header.optionalString("topicList"));
        // We keep no consume rate per group, so consumeTps is always 0.
        return progress.of(group, topics)
            .map(queues -> RemotingCommand.success(request, QueueKeyedJson.body(broker.json(),
                Map.of("consumeTps", 0.0), offsetTable(queues))));
    }

    private Map<MessageQueue, OffsetWrapper> offsetTable(List<ConsumeProgress.QueueProgress> queues) {
        Map<MessageQueue, OffsetWrapper> table = new LinkedHashMap<>();
        for (ConsumeProgress.QueueProgress queue : queues) {
            long[] offsets = queue.consumeStatsOffsets();
            table.put(new MessageQueue(broker.config().brokerName(), queue.queueId(), queue.topic()),
                new OffsetWrapper(queue.brokerOffset(), offsets[0], queue.lastTimestamp(), offsets[1]));
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
