package io.vrmq.broker.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * Subscription group administration: UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200), GET_ALL_SUBSCRIPTIONGROUP_CONFIG
 * (201), DELETE_SUBSCRIPTIONGROUP (207) and GET_SUBSCRIPTIONGROUP_CONFIG (352); create/update is {@link GroupAdmin}'s,
 * which the HTTP admin API shares. Runs on the event loop; the group and offset tables are thread-safe and persist
 * asynchronously.
 */
public final class GroupAdminProcessor {
    private static final Logger log = LoggerFactory.getLogger(GroupAdminProcessor.class);

    private final BrokerContext broker;
    private final GroupAdmin admin;

    public GroupAdminProcessor(BrokerContext broker) {
        this.broker = broker;
        this.admin = new GroupAdmin(broker);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, this::updateAndCreate);
        table.register(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, this::allGroups);
        table.register(RequestCode.DELETE_SUBSCRIPTIONGROUP, this::delete);
        table.register(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, this::groupConfig);
    }

    /** The body replaces the whole config (see {@link GroupAdmin}). No body: nothing to do, SUCCESS. */
    private Future<RemotingCommand> updateAndCreate(RemotingConnection connection, RemotingCommand request) {
        if (!request.hasBody()) {
            return reply(RemotingCommand.success(request, null));
        }
        JsonNode body = broker.json().decode(request.body(), JsonNode.class);
        return admin.createOrUpdate(body, connection.remoteAddress())
            .map(config -> RemotingCommand.success(request, null));
    }

    /** RocketMQ's SubscriptionGroupWrapper: the table, its version, and the (always empty here) forbidden table. */
    private Future<RemotingCommand> allGroups(RemotingConnection connection, RemotingCommand request) {
        Map<String, SubscriptionGroupConfig> groups = broker.groups().all();
        Map<String, Object> body = Map.of("subscriptionGroupTable", groups, "forbiddenTable", Map.of(),
            "dataVersion", broker.groups().dataVersion());
        return reply(RemotingCommand.success(request, Map.of("totalGroupNum", Integer.toString(groups.size())),
            broker.json().encode(body)));
    }

    private Future<RemotingCommand> delete(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String group = header.requiredString("groupName");
        log.info("delete subscription group {} requested by {}", group, connection.remoteAddress());
        if (header.optionalBoolean("cleanOffset", false)) {
            broker.offsets().removeGroup(group);
        }
        return broker.groups().delete(group).map(deleted -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> groupConfig(RemotingConnection connection, RemotingCommand request) {
        String group = request.header().requiredString("group");
        SubscriptionGroupConfig config = broker.groups().get(group);
        if (config == null) {
            return reply(RemotingCommand.failure(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                "No group in this broker"));
        }
        return reply(RemotingCommand.success(request, broker.json().encode(config)));
    }

    private static Future<RemotingCommand> reply(RemotingCommand response) {
        return Future.succeededFuture(response);
    }
}
