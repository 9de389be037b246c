package io.vrmq.broker.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.vrmq.remoting.body.ConsumerData;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static io.vrmq.broker.auth.Action.CREATE;
import static io.vrmq.broker.auth.Action.DELETE;
import static io.vrmq.broker.auth.Action.GET;
import static io.vrmq.broker.auth.Action.LIST;
import static io.vrmq.broker.auth.Action.PUB;
import static io.vrmq.broker.auth.Action.SUB;
import static io.vrmq.broker.auth.Action.UPDATE;

/**
 * Which resources and actions a remoting request needs, as Apache's DefaultAuthorizationContextBuilder derives
 * them: explicit rules for the data path (send, pull, heartbeat, offsets, locks), and for every other code the
 * {@code @RocketMQAction}/{@code @RocketMQResource} annotations of its request header, written out here as a table.
 * A request with no ext fields, or of a code without a rule, needs nothing (it is allowed once authenticated).
 *
 * <p>Beyond Apache, and stricter: LITE_PULL_MESSAGE (361) is checked like PULL_MESSAGE and the reply sends
 * (324/325) like the sends; Apache's table has no rule for them, so any authenticated user could use them.
 *
 * <p>Stateless apart from the immutable table: any thread may call it.
 */
public final class RequestResources {
    private static final String TOPIC = "topic";
    private static final String GROUP = "group";
    private static final String CONSUMER_GROUP = "consumerGroup";
    private static final String TOPIC_V2 = "b";
    /** GetConsumeStats' topicList separator (TOPIC_NAME_SEPARATOR). */
    private static final String TOPIC_LIST_SEPARATOR = ";";

    private final RemotingJson json;
    private final String clusterName;
    private final Map<Integer, HeaderRule> headerRules = headerRules();

    public RequestResources(RemotingJson json, String clusterName) {
        this.json = json;
        this.clusterName = clusterName;
    }

    /** @throws AuthException when a body the rule reads does not parse (Apache: "parse authorization context error.") */
    public List<AccessRequest> of(RemotingCommand request) {
        Map<String, String> fields = request.extFields();
        if (fields.isEmpty()) {
            return List.of();
        }
        List<AccessRequest> needed = new ArrayList<>(2);
        switch (request.code()) {
            case RequestCode.SEND_MESSAGE, RequestCode.SEND_REPLY_MESSAGE -> send(fields.get(TOPIC), needed);
            case RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE, RequestCode.SEND_REPLY_MESSAGE_V2 ->
                send(fields.get(TOPIC_V2), needed);
            case RequestCode.RECALL_MESSAGE ->
                needed.add(AccessRequest.of(Resource.topic(fields.get(TOPIC)), PUB));
            case RequestCode.END_TRANSACTION -> {
                String topic = fields.get(TOPIC);
                if (topic != null && !topic.isBlank()) {
                    needed.add(AccessRequest.of(Resource.topic(topic), PUB));
                }
            }
            case RequestCode.CONSUMER_SEND_MSG_BACK ->
                needed.add(AccessRequest.of(Resource.group(fields.get(GROUP)), SUB));
            case RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE -> {
                topicUnlessRetry(fields.get(TOPIC), needed, SUB);
                needed.add(AccessRequest.of(Resource.group(fields.get(CONSUMER_GROUP)), SUB));
            }
            case RequestCode.QUERY_MESSAGE -> needed.add(AccessRequest.of(Resource.topic(fields.get(TOPIC)), SUB, GET));
            case RequestCode.HEART_BEAT -> heartbeat(request, needed);
            case RequestCode.UNREGISTER_CLIENT -> {
                String group = fields.get(CONSUMER_GROUP);
                if (group != null && !group.isBlank()) {
                    needed.add(AccessRequest.of(Resource.group(group), SUB));
                }
            }
            case RequestCode.GET_CONSUMER_LIST_BY_GROUP ->
                needed.add(AccessRequest.of(Resource.group(fields.get(CONSUMER_GROUP)), SUB, GET));
            case RequestCode.QUERY_CONSUMER_OFFSET -> topicAndGroup(fields, needed, SUB, GET);
            case RequestCode.UPDATE_CONSUMER_OFFSET -> topicAndGroup(fields, needed, SUB, UPDATE);
            case RequestCode.LOCK_BATCH_MQ, RequestCode.UNLOCK_BATCH_MQ -> lockBody(request, needed);
            default -> byHeaderRule(request.code(), fields, needed);
        }
        return needed;
    }

    private static void send(String topic, List<AccessRequest> needed) {
        needed.add(Resource.isRetryTopic(topic) ? AccessRequest.of(Resource.group(topic), SUB)
            : AccessRequest.of(Resource.topic(topic), PUB));
    }

    private static void topicUnlessRetry(String topic, List<AccessRequest> needed, Action... actions) {
        if (!Resource.isRetryTopic(topic)) {
            needed.add(AccessRequest.of(Resource.topic(topic), actions));
        }
    }

    private static void topicAndGroup(Map<String, String> fields, List<AccessRequest> needed, Action... actions) {
        topicUnlessRetry(fields.get(TOPIC), needed, actions);
        needed.add(AccessRequest.of(Resource.group(fields.get(CONSUMER_GROUP)), actions));
    }

    private void heartbeat(RemotingCommand request, List<AccessRequest> needed) {
        HeartbeatData heartbeat = decode(() -> json.decode(request.body(), HeartbeatData.class));
        for (ConsumerData consumer : heartbeat.consumerDataSet()) {
            needed.add(AccessRequest.of(Resource.group(consumer.groupName()), SUB));
            for (SubscriptionData subscription : consumer.subscriptionDataSet()) {
                topicUnlessRetry(subscription.topic(), needed, SUB);
            }
        }
    }

    private void lockBody(RemotingCommand request, List<AccessRequest> needed) {
        JsonNode body = decode(() -> json.decode(request.body(), JsonNode.class));
        needed.add(AccessRequest.of(Resource.group(body.path(CONSUMER_GROUP).asText(null)), SUB));
        for (JsonNode queue : body.path("mqSet")) {
            topicUnlessRetry(queue.path(TOPIC).asText(null), needed, SUB);
        }
    }

    private void byHeaderRule(int code, Map<String, String> fields, List<AccessRequest> needed) {
        HeaderRule rule = headerRules.get(code);
        if (rule == null) {
            return;
        }
        for (FieldResource field : rule.fields()) {
            String value = fields.get(field.name());
            if (value == null) {
                continue;
            }
            String[] names = field.splitter() == null ? new String[] {value} : value.split(field.splitter());
            for (String name : names) {
                if (name.isEmpty()) {
                    continue;
                }
                Resource resource = field.type() == ResourceType.TOPIC ? Resource.topicOrRetryGroup(name)
                    : new Resource(field.type(), name, Resource.Pattern.LITERAL);
                needed.add(new AccessRequest(resource, rule.actions()));
            }
        }
        if (needed.isEmpty() && rule.isCluster()) {
            needed.add(new AccessRequest(Resource.cluster(clusterName), rule.actions()));
        }
    }

    private static <T> T decode(Supplier<T> decoder) {
        try {
            T value = decoder.get();
            if (value == null) {
                throw new AuthException("parse authorization context error.");
            }
            return value;
        } catch (RuntimeException e) {
            if (e instanceof AuthException auth) {
                throw auth;
            }
            throw new AuthException("parse authorization context error.");
        }
    }

    /** The header annotations of Apache RocketMQ 5.5.0 for the codes without an explicit rule above. */
    private static Map<Integer, HeaderRule> headerRules() {
        Map<Integer, HeaderRule> rules = new HashMap<>();
        rule(rules, RequestCode.UPDATE_AND_CREATE_TOPIC, false, List.of(CREATE), topic());
        rule(rules, 18 /* UPDATE_AND_CREATE_TOPIC_LIST */, false, List.of(CREATE));
        rule(rules, RequestCode.GET_ALL_TOPIC_CONFIG, false, List.of(GET));
        rule(rules, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, false, List.of(GET), topic());
        rule(rules, RequestCode.GET_MAX_OFFSET, false, List.of(GET), topic());
        rule(rules, RequestCode.GET_MIN_OFFSET, false, List.of(GET), topic());
        rule(rules, RequestCode.GET_EARLIEST_MSG_STORETIME, false, List.of(GET), topic());
        rule(rules, RequestCode.VIEW_MESSAGE_BY_ID, false, List.of(GET), topic());
        rule(rules, RequestCode.CHECK_TRANSACTION_STATE, false, List.of(PUB), topic());
        rule(rules, RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, false, List.of(SUB), group(CONSUMER_GROUP));
        for (int code : new int[] {RequestCode.PUT_KV_CONFIG, RequestCode.DELETE_KV_CONFIG,
            RequestCode.WIPE_WRITE_PERM_OF_BROKER, RequestCode.REGISTER_TOPIC_IN_NAMESRV,
            RequestCode.ADD_WRITE_PERM_OF_BROKER, 902 /* ADD_BROKER */, 905 /* NOTIFY_MIN_BROKER_ID_CHANGE */,
            906 /* EXCHANGE_BROKER_HA_INFO */, 908 /* RESET_MASTER_FLUSH_OFFSET */,
            RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET, RequestCode.NOTIFY_BROKER_ROLE_CHANGED,
            RequestCode.AUTH_CREATE_USER, RequestCode.AUTH_UPDATE_USER, RequestCode.AUTH_DELETE_USER,
            RequestCode.AUTH_CREATE_ACL, RequestCode.AUTH_UPDATE_ACL, RequestCode.AUTH_DELETE_ACL}) {
            rule(rules, code, true, List.of(UPDATE));
        }
        for (int code : new int[] {RequestCode.GET_KV_CONFIG, RequestCode.GET_ROUTEINFO_BY_TOPIC,
            RequestCode.GET_PRODUCER_CONNECTION_LIST, RequestCode.GET_KVLIST_BY_NAMESPACE,
            315 /* VIEW_BROKER_STATS_DATA */, RequestCode.GET_BROKER_CONSUME_STATS, RequestCode.GET_ALL_PRODUCER_INFO,
            355 /* EXPORT_ROCKSDB_CONFIG_TO_JSON */, RequestCode.CONTROLLER_GET_REPLICA_INFO,
            RequestCode.AUTH_GET_USER, RequestCode.AUTH_LIST_USER, RequestCode.AUTH_GET_ACL,
            RequestCode.AUTH_LIST_ACL}) {
            rule(rules, code, true, List.of(GET));
        }
        for (int code : new int[] {RequestCode.REGISTER_BROKER, RequestCode.UNREGISTER_BROKER,
            RequestCode.DELETE_TOPIC_IN_NAMESRV, 903 /* REMOVE_BROKER, field brokerClusterName */,
            RequestCode.BROKER_HEARTBEAT, RequestCode.CONTROLLER_ELECT_MASTER, RequestCode.CONTROLLER_REGISTER_BROKER,
            RequestCode.CLEAN_BROKER_DATA, 1013 /* CONTROLLER_APPLY_BROKER_ID */}) {
            rule(rules, code, true, List.of(UPDATE),
                cluster(code == 903 ? "brokerClusterName" : "clusterName"));
        }
        rule(rules, RequestCode.QUERY_DATA_VERSION, true, List.of(GET), cluster("clusterName"));
        rule(rules, 1012 /* CONTROLLER_GET_NEXT_BROKER_ID */, true, List.of(GET), cluster("clusterName"));
        rule(rules, RequestCode.GET_BROKER_MEMBER_GROUP, false, List.of(GET), cluster("clusterName"));
        rule(rules, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, false, List.of(GET));
        rule(rules, RequestCode.GET_TOPIC_STATS_INFO, false, List.of(GET), topic());
        rule(rules, RequestCode.GET_CONSUMER_CONNECTION_LIST, false, List.of(GET), group(CONSUMER_GROUP));
        rule(rules, RequestCode.DELETE_SUBSCRIPTIONGROUP, false, List.of(DELETE), group("groupName"));
        rule(rules, RequestCode.GET_CONSUME_STATS, false, List.of(GET), group(CONSUMER_GROUP), topic(),
            new FieldResource("topicList", ResourceType.TOPIC, TOPIC_LIST_SEPARATOR));
        rule(rules, RequestCode.DELETE_TOPIC_IN_BROKER, false, List.of(DELETE), topic());
        rule(rules, RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, false, List.of(UPDATE), group(GROUP), topic());
        rule(rules, RequestCode.INVOKE_BROKER_TO_GET_CONSUMER_STATUS, false, List.of(GET), topic(), group(GROUP));
        rule(rules, RequestCode.GET_TOPICS_BY_CLUSTER, false, List.of(LIST));
        rule(rules, RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, false, List.of(GET), topic());
        rule(rules, RequestCode.QUERY_CONSUME_TIME_SPAN, false, List.of(GET), topic(), group(GROUP));
        rule(rules, RequestCode.GET_CONSUMER_RUNNING_INFO, false, List.of(GET), group(CONSUMER_GROUP));
        rule(rules, 308 /* QUERY_CORRECTION_OFFSET */, false, List.of(GET),
            new FieldResource("filterGroups", ResourceType.GROUP, ","), group("compareGroup"), topic());
        rule(rules, RequestCode.CONSUME_MESSAGE_DIRECTLY, false, List.of(SUB), group(CONSUMER_GROUP), topic());
        rule(rules, 314 /* CLONE_GROUP_OFFSET */, false, List.of(UPDATE), group("destGroup"), topic());
        rule(rules, RequestCode.QUERY_CONSUME_QUEUE, false, List.of(GET), topic(), group(CONSUMER_GROUP));
        rule(rules, 323 /* RESUME_CHECK_HALF_MESSAGE */, false, List.of(UPDATE), topic());
        rule(rules, RequestCode.PUSH_REPLY_MESSAGE_TO_CLIENT, false, List.of(SUB), group("producerGroup"), topic());
        rule(rules, RequestCode.QUERY_TOPICS_BY_CONSUMER, false, List.of(GET), group(GROUP));
        rule(rules, 345 /* QUERY_SUBSCRIPTION_BY_CONSUMER */, false, List.of(GET), group(GROUP), topic());
        rule(rules, RequestCode.GET_TOPIC_CONFIG, false, List.of(GET), topic());
        rule(rules, RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, false, List.of(GET), group(GROUP));
        rule(rules, 353 /* UPDATE_AND_GET_GROUP_FORBIDDEN */, false, List.of(UPDATE), group(GROUP), topic());
        rule(rules, 354 /* CHECK_ROCKSDB_CQ_WRITE_PROGRESS */, false, List.of(GET), topic());
        for (int code : new int[] {RequestCode.POP_MESSAGE, RequestCode.ACK_MESSAGE,
            RequestCode.CHANGE_MESSAGE_INVISIBLETIME, RequestCode.NOTIFICATION}) {
            rule(rules, code, false, List.of(SUB), group(CONSUMER_GROUP), topic());
        }
        rule(rules, RequestCode.PEEK_MESSAGE, false, List.of(SUB), topic(), group(CONSUMER_GROUP));
        rule(rules, RequestCode.POLLING_INFO, false, List.of(GET), group(CONSUMER_GROUP), topic());
        rule(rules, 200073 /* NOTIFY_UNSUBSCRIBE_LITE */, false, List.of(SUB), group(CONSUMER_GROUP));
        return Map.copyOf(rules);
    }

    private static void rule(Map<Integer, HeaderRule> rules, int code, boolean isCluster, List<Action> actions,
                             FieldResource... fields) {
        if (rules.put(code, new HeaderRule(isCluster, actions, List.of(fields))) != null) {
            throw new IllegalStateException("two authorization rules for request code " + code);
        }
    }

    private static FieldResource topic() {
        return new FieldResource(TOPIC, ResourceType.TOPIC, null);
    }

    private static FieldResource group(String field) {
        return new FieldResource(field, ResourceType.GROUP, null);
    }

    private static FieldResource cluster(String field) {
        return new FieldResource(field, ResourceType.CLUSTER, null);
    }

    /** A header field that names a resource; {@code splitter} (a regex) splits a list, null for one name. */
    private record FieldResource(String name, ResourceType type, String splitter) {
    }

    /** {@code isCluster}: with no named resource, the request is about the cluster (Cluster:<clusterName>). */
    private record HeaderRule(boolean isCluster, List<Action> actions, List<FieldResource> fields) {
    }
}
