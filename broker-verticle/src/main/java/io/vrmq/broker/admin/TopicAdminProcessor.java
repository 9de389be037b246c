package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.body.TopicList;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Topic administration: UPDATE_AND_CREATE_TOPIC (17), GET_ALL_TOPIC_CONFIG (21), DELETE_TOPIC_IN_BROKER (215),
 * GET_TOPIC_CONFIG (351), GET_TOPIC_STATS_INFO (202) and GET_SYSTEM_TOPIC_LIST_FROM_BROKER (305), with RocketMQ's
 * header fields, bodies and remarks. The checks and changes themselves are {@link TopicAdmin}'s, which the HTTP admin
 * API shares. Table changes run on the event loop (the tables are thread-safe and persist asynchronously); store
 * reads and the store's topic deletion run on the reader pool.
 */
public final class TopicAdminProcessor {
    private final BrokerContext broker;
    private final SystemTopicNames systemTopics;
    private final TopicAdmin admin;

    public TopicAdminProcessor(BrokerContext broker, SystemTopicNames systemTopics) {
        this.broker = broker;
        this.systemTopics = systemTopics;
        this.admin = new TopicAdmin(broker, systemTopics);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.UPDATE_AND_CREATE_TOPIC, this::updateAndCreate);
        table.register(RequestCode.GET_ALL_TOPIC_CONFIG, this::allTopicConfig);
        table.register(RequestCode.DELETE_TOPIC_IN_BROKER, this::delete);
        table.register(RequestCode.GET_TOPIC_CONFIG, this::topicConfig);
        table.register(RequestCode.GET_TOPIC_STATS_INFO, this::topicStats);
        table.register(RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER, this::systemTopicList);
    }

    /** The table's change listener registers the new config with every NameServer at once. */
    private Future<RemotingCommand> updateAndCreate(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        TopicConfig requested = new TopicConfig(header.requiredString("topic"), header.requiredInt("readQueueNums"),
            header.requiredInt("writeQueueNums"), header.requiredInt("perm"),
            header.optionalString("topicFilterType"), header.optionalInt("topicSysFlag", 0),
            header.optionalBoolean("order", false), null);
        return admin.createOrUpdate(requested, header.optionalString("attributes"), connection.remoteAddress())
            .map(config -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> allTopicConfig(RemotingConnection connection, RemotingCommand request) {
        TopicConfigSerializeWrapper snapshot = broker.topics().snapshot();
        TopicConfigSerializeWrapper body = new TopicConfigSerializeWrapper(snapshot.topicConfigTable(),
            snapshot.dataVersion(), DataVersion.initial(0), broker.json().mapper().createObjectNode(),
            broker.json().mapper().createObjectNode());
        return reply(RemotingCommand.success(request,
            Map.of("totalTopicNum", Integer.toString(snapshot.topicConfigTable().size())),
            broker.json().encode(body)));
    }

    /** Removes the config, the group offsets and the ConsumeQueues; the CommitLog keeps the records until retention. */
    private Future<RemotingCommand> delete(RemotingConnection connection, RemotingCommand request) {
        return admin.delete(request.header().requiredString("topic"), connection.remoteAddress())
            .map(deleted -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> topicConfig(RemotingConnection connection, RemotingCommand request) {
        String topic = request.header().requiredString("topic");
        TopicConfig config = broker.topics().get(topic);
        if (config == null) {
            return reply(RemotingCommand.failure(request, ResponseCode.TOPIC_NOT_EXIST,
                "No topic in this broker. topic: " + topic));
        }
        // RocketMQ answers a TopicConfigAndQueueMapping: the config's own fields plus a mappingDetail that is left
        // out while the topic has no static queue mapping (we never have one).
        return reply(RemotingCommand.success(request, broker.json().encode(config)));
    }

    private Future<RemotingCommand> topicStats(RemotingConnection connection, RemotingCommand request) {
        String topic = request.header().requiredString("topic");
        String brokerName = broker.config().brokerName();
        return admin.status(topic).map(queues -> {
            Map<MessageQueue, TopicOffset> table = new LinkedHashMap<>();
            for (TopicAdmin.QueueStatus queue : queues) {
                table.put(new MessageQueue(brokerName, queue.queueId(), topic),
                    new TopicOffset(queue.lastUpdateTimestamp(), queue.maxOffset(), queue.minOffset()));
            }
            return RemotingCommand.success(request, QueueKeyedJson.body(broker.json(), Map.of("topicPutTps", 0.0),
                table));
        });
    }

    private Future<RemotingCommand> systemTopicList(RemotingConnection connection, RemotingCommand request) {
        Set<String> names = new TreeSet<>(systemTopics.names());
        broker.topics().all().keySet().stream().filter(systemTopics::isSystemTopic).forEach(names::add);
        return reply(RemotingCommand.success(request, broker.json().encode(new TopicList(names, null))));
    }

    private static Future<RemotingCommand> reply(RemotingCommand response) {
        return Future.succeededFuture(response);
    }

    /** One queue's line in a TopicStatsTable. */
    record TopicOffset(long lastUpdateTimestamp, long maxOffset, long minOffset) {
    }
}
