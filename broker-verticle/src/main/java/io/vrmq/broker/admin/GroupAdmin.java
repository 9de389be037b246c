package io.vrmq.broker.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.format.TopicNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creating or replacing a subscription group's config, shared by UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200,
 * {@link GroupAdminProcessor}) and the HTTP admin API. Refusals are failed futures of
 * {@link RemotingCommandException} (INVALID_PARAMETER with RocketMQ's remark). Runs on the caller's thread: the group
 * table is thread-safe and persists asynchronously.
 */
public final class GroupAdmin {
    private static final Logger log = LoggerFactory.getLogger(GroupAdmin.class);
    private static final int GROUP_MAX_LENGTH = 120;

    private final BrokerContext broker;

    public GroupAdmin(BrokerContext broker) {
        this.broker = broker;
    }

    /**
     * The body replaces the whole config, as in RocketMQ (which decodes it into a fresh object): a field the body
     * leaves out takes its default, not the group's current value. Answers the config stored.
     */
    public Future<SubscriptionGroupConfig> createOrUpdate(JsonNode body, String requester) {
        String group = body.path("groupName").asText(null);
        String invalid = invalidGroupReason(group);
        if (invalid != null) {
            return Future.failedFuture(new RemotingCommandException(ResponseCode.INVALID_PARAMETER, invalid));
        }
        ObjectNode merged = broker.json().mapper().valueToTree(SubscriptionGroupConfig.defaults(group,
            broker.config().maxReconsumeTimes()));
        body.fields().forEachRemaining(field -> merged.set(field.getKey(), field.getValue()));
        SubscriptionGroupConfig config = broker.json().mapper().convertValue(merged, SubscriptionGroupConfig.class);
        log.info("update or create subscription group {} from {}", group, requester);
        return broker.groups().put(config).map(persisted -> config);
    }

    /** Null when the name is fine, else RocketMQ's TopicValidator.validateGroup remark. */
    public static String invalidGroupReason(String group) {
        if (group == null || group.isBlank()) {
            return "The specified group is blank.";
        }
        if (!TopicNames.hasOnlyNameChars(group)) {
            return "The specified group: " + group + ", contains illegal characters, allowing only "
                + TopicNames.NAME_PATTERN;
        }
        if (group.length() > GROUP_MAX_LENGTH) {
            return "The specified group: " + group + ", is longer than group max length: " + GROUP_MAX_LENGTH;
        }
        return null;
    }
}
