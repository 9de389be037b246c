package io.vrmq.ceiling;

import io.vertx.core.Future;
import io.vrmq.remoting.body.ConsumerData;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a client needs besides sends and pulls: HEART_BEAT (34) and UNREGISTER_CLIENT (35) keep each group's client
 * ids (for the consumers' rebalance, GET_CONSUMER_LIST_BY_GROUP 38), and consumer offsets are queried (14), committed
 * (15) and bounded (GET_MAX_OFFSET 30, GET_MIN_OFFSET 31). Event loop only.
 */
final class CeilingClients {
    private final RemotingJson json;
    private final MemoryQueues queues;
    private final Map<String, Map<RemotingConnection, String>> consumersByGroup = new HashMap<>();

    CeilingClients(RemotingJson json, MemoryQueues queues) {
        this.json = json;
        this.queues = queues;
    }

    void register(ProcessorTable.Builder table) {
        table.register(RequestCode.HEART_BEAT, this::heartbeat);
        table.register(RequestCode.UNREGISTER_CLIENT, this::unregister);
        table.register(RequestCode.GET_CONSUMER_LIST_BY_GROUP, this::consumerList);
        table.register(RequestCode.QUERY_CONSUMER_OFFSET, this::queryOffset);
        table.register(RequestCode.UPDATE_CONSUMER_OFFSET, this::commitOffset);
        table.register(RequestCode.GET_MAX_OFFSET, (connection, request) -> bound(request, true));
        table.register(RequestCode.GET_MIN_OFFSET, (connection, request) -> bound(request, false));
    }

    private Future<RemotingCommand> heartbeat(RemotingConnection connection, RemotingCommand request) {
        HeartbeatData heartbeat = json.decode(request.body(), HeartbeatData.class);
        for (ConsumerData consumer : heartbeat.consumerDataSet()) {
            Map<RemotingConnection, String> members = consumersByGroup.computeIfAbsent(consumer.groupName(),
                created -> new LinkedHashMap<>());
            if (members.put(connection, heartbeat.clientID()) == null) {
                connection.onClose(closed -> members.remove(closed));
            }
        }
        return Future.succeededFuture(RemotingCommand.success(request, Map.of("IS_SUPPORT_HEART_BEAT_V2", "false",
            "IS_SUB_CHANGE", "false"), null));
    }

    private Future<RemotingCommand> unregister(RemotingConnection connection, RemotingCommand request) {
        String group = request.header().optionalString("consumerGroup");
        Map<RemotingConnection, String> members = group == null ? null : consumersByGroup.get(group);
        if (members != null) {
            members.remove(connection);
        }
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> consumerList(RemotingConnection connection, RemotingCommand request) {
        String group = request.header().requiredString("consumerGroup");
        Map<RemotingConnection, String> members = consumersByGroup.getOrDefault(group, Map.of());
        if (members.isEmpty()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "no consumer for this group, " + group));
        }
        List<String> clientIds = new ArrayList<>(new TreeSet<>(members.values()));
        return Future.succeededFuture(RemotingCommand.success(request, json.encode(Map.of("consumerIdList",
            clientIds))));
    }

    private Future<RemotingCommand> queryOffset(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        Long offset = queues.committed(header.requiredString("consumerGroup"), key(header));
        if (offset == null) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.QUERY_NOT_FOUND,
                "Not found, maybe this group consumer boot first"));
        }
        return Future.succeededFuture(RemotingCommand.success(request, Map.of("offset", Long.toString(offset)),
            null));
    }

    private Future<RemotingCommand> commitOffset(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        queues.commit(header.requiredString("consumerGroup"), key(header), header.requiredLong("commitOffset"));
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> bound(RemotingCommand request, boolean isMax) {
        RecordRing ring = queues.existing(key(request.header()));
        long offset = ring == null ? 0 : isMax ? ring.maxOffset() : ring.minOffset();
        return Future.succeededFuture(RemotingCommand.success(request, Map.of("offset", Long.toString(offset)),
            null));
    }

    private static QueueKey key(HeaderFields header) {
        return new QueueKey(header.requiredString("topic"), header.requiredInt("queueId"));
    }
}
