package io.vrmq.broker.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.admin.ConsumeProgress;
import io.vrmq.broker.admin.GroupAdmin;
import io.vrmq.broker.admin.OffsetReset;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.broker.group.SubscriptionGroupConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code /api/v1/groups}: list, detail (connections, subscriptions, consume type, message model), progress with lag,
 * offset reset to a time, create/update a subscription group. The figures and changes come from the services shared
 * with the remoting admin processors ({@link ConsumeProgress}, {@link OffsetReset}, {@link GroupAdmin}). A group is
 * known when it has a subscription group config, live members or committed offsets; else 404. Event loop; progress
 * and reset read the store on the reader pool.
 */
final class GroupRoutes {
    /** RocketMQ's maxReconsumeTimes bound for a group: -1 (the broker default) up to this many retries. */
    private static final int MAX_RETRY_TIMES = 1_000;

    private final BrokerContext broker;
    private final ConsumeProgress progress;
    private final OffsetReset offsetReset;
    private final GroupAdmin groupAdmin;
    private final HttpReplies replies;

    GroupRoutes(BrokerContext broker, HttpReplies replies) {
        this.broker = broker;
        this.progress = new ConsumeProgress(broker);
        this.offsetReset = new OffsetReset(broker);
        this.groupAdmin = new GroupAdmin(broker);
        this.replies = replies;
    }

    void mount(Router router) {
        router.get("/api/v1/groups").handler(this::list);
        router.post("/api/v1/groups").handler(this::createOrUpdate);
        router.get("/api/v1/groups/:group").handler(this::detail);
        router.get("/api/v1/groups/:group/progress").handler(this::progress);
        router.post("/api/v1/groups/:group/reset-offset").handler(this::resetOffset);
    }

    private void list(RoutingContext context) {
        Set<String> names = new TreeSet<>(broker.groups().all().keySet());
        names.addAll(broker.clients().consumerGroupNames());
        List<Map<String, Object>> groups = new ArrayList<>();
        for (String group : names) {
            ConsumerGroupInfo online = broker.clients().consumerGroup(group);
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("group", group);
            view.put("connections", online == null ? 0 : online.channels().size());
            view.put("config", broker.groups().get(group));
            groups.add(view);
        }
        replies.send(context, 200, Map.of("groups", groups));
    }

    private void detail(RoutingContext context) {
        String group = knownGroup(context);
        ConsumerGroupInfo online = broker.clients().consumerGroup(group);
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("group", group);
        view.put("config", broker.groups().get(group));
        view.put("online", online != null && !online.channels().isEmpty());
        view.put("connections", online == null ? List.of() : connections(online.channels()));
        view.put("subscriptions", online == null ? Map.of() : new TreeMap<>(online.subscriptions()));
        view.put("consumeType", online == null ? null : online.consumeType());
        view.put("messageModel", online == null ? null : online.messageModel());
        view.put("consumeFromWhere", online == null ? null : online.consumeFromWhere());
        view.put("topicsWithOffsets", broker.offsets().topicsOf(group));
        replies.send(context, 200, view);
    }

    /** Optional {@code ?topic=}: only that topic. */
    private void progress(RoutingContext context) {
        String group = knownGroup(context);
        Set<String> topics = progress.topicsToReport(group, RequestValues.query(context, "topic"), null);
        replies.reply(context, progress.of(group, topics).map(queues -> progressView(group, queues)));
    }

    /** Body {@code {"topic": "T", "timestamp": ms, "force": true}}; timestamp -1 moves to the end of each queue. */
    private void resetOffset(RoutingContext context) {
        String group = context.pathParam("group");
        JsonObject body = RequestValues.body(context);
        String topic = RequestValues.requiredString(body, "topic");
        long timestamp = RequestValues.requiredLong(body, "timestamp");
        boolean isForce = RequestValues.booleanField(body, "force", true);
        OffsetReset.Request request = new OffsetReset.Request(topic, group, timestamp, isForce, -1, null);
        replies.reply(context, offsetReset.reset(request, TopicRoutes.requester(context)).map(table -> {
            List<Map<String, Object>> offsets = new ArrayList<>();
            table.forEach((queue, offset) -> offsets.add(Map.of("queueId", queue.queueId(), "offset", offset)));
            return Map.of("group", group, "topic", topic, "timestamp", timestamp, "offsets", offsets);
        }));
    }

    /**
     * Body: RocketMQ's SubscriptionGroupConfig fields ({@code groupName}, {@code retryMaxTimes},
     * {@code consumeBroadcastEnable}, {@code consumeEnable}, ...). It replaces the whole config, as mqadmin
     * updateSubGroup does. 201 when the group is new, 200 when it was replaced.
     */
    private void createOrUpdate(RoutingContext context) {
        JsonObject body = RequestValues.body(context);
        String group = RequestValues.requiredString(body, "groupName");
        // Type checks of the fields the API documents; GroupAdmin merges the body over the defaults.
        RequestValues.intField(body, "retryMaxTimes", 0, -1, MAX_RETRY_TIMES);
        RequestValues.booleanField(body, "consumeBroadcastEnable", true);
        RequestValues.booleanField(body, "consumeEnable", true);
        boolean isNew = broker.groups().get(group) == null;
        replies.reply(context, isNew ? 201 : 200, groupAdmin.createOrUpdate(jsonNode(body),
            TopicRoutes.requester(context)));
    }

    private String knownGroup(RoutingContext context) {
        String group = context.pathParam("group");
        boolean isKnown = broker.groups().get(group) != null || broker.clients().consumerGroup(group) != null
            || !broker.offsets().topicsOf(group).isEmpty();
        if (!isKnown) {
            throw HttpError.notFound("consumer group " + group + " does not exist");
        }
        return group;
    }

    private static Map<String, Object> progressView(String group, List<ConsumeProgress.QueueProgress> queues) {
        Map<String, List<Map<String, Object>>> byTopic = new TreeMap<>();
        Map<String, Long> lagByTopic = new TreeMap<>();
        for (ConsumeProgress.QueueProgress queue : queues) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("queueId", queue.queueId());
            line.put("brokerOffset", queue.brokerOffset());
            line.put("consumerOffset", queue.consumerOffset());
            line.put("lag", queue.lag());
            line.put("inflight", queue.inflight());
            line.put("lastTimestamp", queue.lastTimestamp());
            byTopic.computeIfAbsent(queue.topic(), ignored -> new ArrayList<>()).add(line);
            lagByTopic.merge(queue.topic(), queue.lag(), Long::sum);
        }
        List<Map<String, Object>> topics = new ArrayList<>();
        byTopic.forEach((topic, lines) -> topics.add(Map.of("topic", topic, "lag", lagByTopic.get(topic),
            "queues", lines)));
        long totalLag = lagByTopic.values().stream().mapToLong(Long::longValue).sum();
        return Map.of("group", group, "totalLag", totalLag, "topics", topics);
    }

    private static List<Map<String, Object>> connections(List<ClientChannel> channels) {
        return channels.stream()
            .sorted(Comparator.comparing(ClientChannel::clientId))
            .map(channel -> Map.<String, Object>of("clientId", channel.clientId(),
                "clientAddr", channel.connection().remoteAddress().replaceFirst("^/", ""),
                "language", channel.language().name(), "version", channel.version(),
                "lastUpdateTimestamp", channel.lastUpdateTimestamp()))
            .toList();
    }

    private JsonNode jsonNode(JsonObject body) {
        try {
            return broker.json().mapper().readTree(body.toBuffer().getBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("re-reading a decoded JSON body", e);
        }
    }
}
