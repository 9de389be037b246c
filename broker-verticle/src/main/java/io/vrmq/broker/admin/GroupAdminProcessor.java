package io.vrmq.broker.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * (201), DELETE_SUBSCRIPTIONGROUP (207) and GET_SUBSCRIPTIONGROUP_CONFIG (352). Runs on the event loop; the group and
 * offset tables are thread-safe and persist asynchronously.
 */
public final class GroupAdminProcessor {
    private static final Logger log = LoggerFactory.getLogger(GroupAdminProcessor.class);
    private static final int GROUP_MAX_LENGTH = 120;
    private static final String VALID_CHARS = "^[%|a-zA-Z0-9_-]+$";

    private final BrokerContext broker;

    public GroupAdminProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, this::updateAndCreate);
        table.register(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, this::allGroups);
        table.register(RequestCode.DELETE_SUBSCRIPTIONGROUP, this::delete);
        table.register(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, this::groupConfig);
    }

    /**
     * The body replaces the whole config, as in RocketMQ (which decodes it into a fresh object): a field the body
     * leaves out takes its default, not the group's current value. No body: nothing to do, SUCCESS.
     */
    private Future<RemotingCommand> updateAndCreate(RemotingConnection connection, RemotingCommand request) {
        if (!request.hasBody()) {
            return reply(RemotingCommand.success(request, null));
        }
        JsonNode body = broker.json().decode(request.body(), JsonNode.class);
        String group = body.path("groupName").asText(null);
        String invalid = invalidGroupReason(group);
        if (invalid != null) {
            return reply(RemotingCommand.failure(request, ResponseCode.INVALID_PARAMETER, invalid));
        }
        ObjectNode merged = broker.json().mapper().valueToTree(SubscriptionGroupConfig.defaults(group,
            broker.config().maxReconsumeTimes()));
        body.fields().forEachRemaining(field -> merged.set(field.getKey(), field.getValue()));
        SubscriptionGroupConfig config = broker.json().mapper().convertValue(merged, SubscriptionGroupConfig.class);
        log.info("update or create subscription group {} from {}", group, connection.remoteAddress());
        return broker.groups().put(config).map(persisted -> RemotingCommand.success(request, null));
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

    /** Null when the name is fine, else RocketMQ's TopicValidator.validateGroup remark. */
    static String invalidGroupReason(String group) {
        if (group == null || group.isBlank()) {
            return "The specified group is blank.";
        }
        if (!group.matches(VALID_CHARS)) {
            return "The specified group: " + group + ", contains illegal characters, allowing only " + VALID_CHARS;
        }
        if (group.length() > GROUP_MAX_LENGTH) {
            return "The specified group: " + group + ", is longer than group max length: " + GROUP_MAX_LENGTH;
        }
        return null;
    }

    private static Future<RemotingCommand> reply(RemotingCommand response) {
        return Future.succeededFuture(response);
    }
}
