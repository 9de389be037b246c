package io.vrmq.broker.http;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.admin.TopicAdmin;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /api/v1/topics}: list, create/update, delete, per-queue status. The checks and changes are
 * {@link TopicAdmin}'s, shared with the remoting admin processor. Event loop; status reads the store on the reader
 * pool.
 */
final class TopicRoutes {
    private static final int DEFAULT_PERM = Permission.READ_WRITE;
    private static final int MAX_PERM = Permission.READ_WRITE | Permission.INHERIT;
    /** RocketMQ caps queue numbers per topic at this many in its admin tools. */
    private static final int MAX_QUEUE_NUMS = 1024;

    private final BrokerContext broker;
    private final TopicAdmin admin;
    private final HttpReplies replies;

    TopicRoutes(BrokerContext broker, TopicAdmin admin, HttpReplies replies) {
        this.broker = broker;
        this.admin = admin;
        this.replies = replies;
    }

    void mount(Router router) {
        router.get("/api/v1/topics").handler(this::list);
        router.post("/api/v1/topics").handler(this::createOrUpdate);
        router.delete("/api/v1/topics/:topic").handler(this::delete);
        router.get("/api/v1/topics/:topic/status").handler(this::status);
    }

    private void list(RoutingContext context) {
        List<Map<String, Object>> topics = new TreeMap<>(broker.topics().all()).values().stream()
            .map(this::view).toList();
        replies.send(context, 200, Map.of("topics", topics));
    }

    /** 201 when the topic is new, 200 when an existing one was updated. */
    private void createOrUpdate(RoutingContext context) {
        JsonObject body = RequestValues.body(context);
        String topic = RequestValues.requiredString(body, "topic");
        int defaultQueueNums = broker.config().defaultTopicQueueNums();
        int readQueueNums = RequestValues.intField(body, "readQueueNums", defaultQueueNums, 1, MAX_QUEUE_NUMS);
        int writeQueueNums = RequestValues.intField(body, "writeQueueNums", readQueueNums, 1, MAX_QUEUE_NUMS);
        int perm = RequestValues.intField(body, "perm", DEFAULT_PERM, 0, MAX_PERM);
        boolean isOrder = RequestValues.booleanField(body, "order", false);
        boolean isNew = broker.topics().get(topic) == null;
        TopicConfig requested = new TopicConfig(topic, readQueueNums, writeQueueNums, perm, null, 0, isOrder, null);
        String attributes = RequestValues.optionalString(body, "attributes");
        replies.reply(context, isNew ? 201 : 200, admin.createOrUpdate(requested, attributes, requester(context))
            .map(this::view));
    }

    private void delete(RoutingContext context) {
        String topic = context.pathParam("topic");
        if (broker.topics().get(topic) == null) {
            throw HttpError.notFound("topic " + topic + " does not exist");
        }
        replies.reply(context, admin.delete(topic, requester(context)).map(deleted -> Map.of("deleted", topic)));
    }

    private void status(RoutingContext context) {
        String topic = context.pathParam("topic");
        Future<Map<String, Object>> status = admin.status(topic).map(queues -> {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("topic", topic);
            view.put("queues", queues);
            view.put("totalMessages", queues.stream()
                .mapToLong(queue -> queue.maxOffset() - queue.minOffset()).sum());
            return view;
        });
        replies.reply(context, status);
    }

    private Map<String, Object> view(TopicConfig config) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("topic", config.topicName());
        view.put("readQueueNums", config.readQueueNums());
        view.put("writeQueueNums", config.writeQueueNums());
        view.put("perm", config.perm());
        view.put("permText", permText(config.perm()));
        view.put("order", config.order());
        view.put("system", admin.systemTopics().isSystemTopic(config.topicName()));
        view.put("attributes", config.attributes());
        return view;
    }

    /** RocketMQ's PermName.perm2String form: "RW-", "R--", "-W-". */
    static String permText(int perm) {
        return (Permission.isReadable(perm) ? "R" : "-") + (Permission.isWritable(perm) ? "W" : "-")
            + ((perm & Permission.INHERIT) != 0 ? "X" : "-");
    }

    static String requester(RoutingContext context) {
        return "http " + context.request().remoteAddress();
    }
}
