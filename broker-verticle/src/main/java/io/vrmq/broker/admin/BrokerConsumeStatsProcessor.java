package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.MessageStore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * GET_BROKER_CONSUME_STATS (317), what mqadmin brokerConsumeStats asks: the ConsumeStats of every subscription group
 * on every topic it committed offsets on, as RocketMQ's ConsumeStatsList
 * ({@code {"brokerAddr":..,"consumeStatsList":[{"<group>":[ConsumeStats, ...]}, ...],"totalDiff":..,
 * "totalInflightDiff":..}}), with RocketMQ's choices: isOrder keeps only order topics; a topic the group's online
 * members do not subscribe to is left out; one line per write queue. Each ConsumeStats has a MessageQueue-keyed
 * offsetTable, so the body is joined by hand around {@link QueueKeyedJson}. Store reads run on the reader pool.
 */
public final class BrokerConsumeStatsProcessor {
    private final BrokerContext broker;

    public BrokerConsumeStatsProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_BROKER_CONSUME_STATS, this::brokerConsumeStats);
    }

    private Future<RemotingCommand> brokerConsumeStats(RemotingConnection connection, RemotingCommand request) {
        boolean isOrder = request.header().optionalBoolean("isOrder", false);
        return broker.store().read(() -> collect(broker.store().store(), isOrder))
            .map(stats -> RemotingCommand.success(request, body(broker.json(), broker.identity().brokerAddr(),
                stats)));
    }

    /** Group → its ConsumeStats, one per topic. Runs on a reader thread. */
    private Map<String, List<ConsumeStats>> collect(MessageStore store, boolean isOrder) {
        Map<String, List<ConsumeStats>> byGroup = new LinkedHashMap<>();
        for (String group : new TreeSet<>(broker.groups().all().keySet())) {
            List<ConsumeStats> statsOfGroup = new ArrayList<>();
            for (String topic : new TreeSet<>(broker.offsets().topicsOf(group))) {
                TopicConfig config = broker.topics().get(topic);
                if (config == null || (isOrder && !config.order()) || !isSubscribed(group, topic)) {
                    continue;
                }
                statsOfGroup.add(consumeStats(store, group, topic, config.writeQueueNums()));
            }
            byGroup.put(group, statsOfGroup);
        }
        return byGroup;
    }

    /** RocketMQ skips a topic the group has no subscription for, but only while the group has any online. */
    private boolean isSubscribed(String group, String topic) {
        ConsumerGroupInfo online = broker.clients().consumerGroup(group);
        return online == null || online.subscriptions().isEmpty() || online.subscription(topic) != null;
    }

    private ConsumeStats consumeStats(MessageStore store, String group, String topic, int writeQueueNums) {
        Map<MessageQueue, OffsetWrapper> table = new LinkedHashMap<>();
        for (int queueId = 0; queueId < writeQueueNums; queueId++) {
            long brokerOffset = Math.max(0, store.getMaxOffsetInQueue(topic, queueId));
            long consumerOffset = Math.max(0, broker.offsets().query(group, topic, queueId));
            long lastTimestamp = consumerOffset > 0
                ? Math.max(0, store.getMessageStoreTimestamp(topic, queueId, consumerOffset - 1)) : 0;
            // No separate pull offsets are kept, so nothing is in flight: pullOffset = consumerOffset.
            table.put(new MessageQueue(broker.config().brokerName(), queueId, topic),
                new OffsetWrapper(brokerOffset, consumerOffset, lastTimestamp, consumerOffset));
        }
        return new ConsumeStats(table);
    }

    private static Buffer body(RemotingJson json, String brokerAddr, Map<String, List<ConsumeStats>> byGroup) {
        long totalDiff = 0;
        StringJoiner list = new StringJoiner(",", "[", "]");
        for (Map.Entry<String, List<ConsumeStats>> group : byGroup.entrySet()) {
            StringJoiner statsOfGroup = new StringJoiner(",", "[", "]");
            for (ConsumeStats stats : group.getValue()) {
                // We keep no consume rate per group, so consumeTps is always 0.
                statsOfGroup.add(QueueKeyedJson.body(json, Map.of("consumeTps", 0.0), stats.offsetTable()).toString());
                totalDiff += stats.totalDiff();
            }
            list.add("{" + json.encode(group.getKey()).toString() + ":" + statsOfGroup + "}");
        }
        return Buffer.buffer("{\"brokerAddr\":" + json.encode(brokerAddr).toString()
            + ",\"consumeStatsList\":" + list + ",\"totalDiff\":" + totalDiff + ",\"totalInflightDiff\":0}");
    }

    /** One queue's line in ConsumeStats, fields as RocketMQ names them. */
    record OffsetWrapper(long brokerOffset, long consumerOffset, long lastTimestamp, long pullOffset) {
    }

    /** One group's offsets on one topic. */
    private record ConsumeStats(Map<MessageQueue, OffsetWrapper> offsetTable) {
        long totalDiff() {
            return offsetTable.values().stream()
                .mapToLong(offsets -> offsets.brokerOffset() - offsets.consumerOffset())
                .sum();
        }
    }
}
