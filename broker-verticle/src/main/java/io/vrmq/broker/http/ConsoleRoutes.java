package io.vrmq.broker.http;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.metrics.BrokerMetrics;
import io.vrmq.broker.metrics.RateWindow;
import io.vrmq.broker.processor.SlaveWriteGuard;
import io.vrmq.broker.processor.TopicResolver;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.TagFilter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the web console needs beyond the other routes: who this broker is ({@code /api/v1/console/broker}), put/get
 * TPS over the last ten minutes ({@code /api/v1/broker/tps-history}, from the once-a-second samples behind putTps and
 * getTps, so the charts have a past when a page opens), a page
 * of a queue's messages ({@code /api/v1/topics/{topic}/queues/{queueId}/messages?offset=&maxNum=}, how a DLQ is
 * browsed), and resending a stored message to one consumer group ({@code POST /api/v1/messages/{msgId}/resend},
 * body {@code {"group": "G"}}). A resend stores a copy in {@code %RETRY%G} with RETRY_TOPIC set to the message's
 * original topic (for a dead letter: the topic it died on) and reconsume times 0, so that group's consumers, and only
 * they, get it again at once. Event loop; store reads on the reader pool, the copy on the writer thread.
 */
final class ConsoleRoutes {
    /** At most this many messages per browse page: each goes into the JSON answer with its body. */
    private static final int MAX_BROWSE_NUM = 32;
    /** TPS history points: one per 5 s by default (120 over the ten minutes kept), at most one per minute. */
    private static final long DEFAULT_HISTORY_STEP_MS = 5_000;
    private static final long MAX_HISTORY_STEP_MS = 60_000;
    /** The version this broker reports as RocketMQ's brokerVersionDesc (BrokerRuntimeInfo, mqadmin brokerStatus). */
    private static final String VERSION_DESC = "V5_5_0";
    private static final int DEFAULT_BROWSE_NUM = 16;
    /** The store's cap on the bytes one read returns; a page of MAX_BROWSE_NUM messages fits in it. */
    private static final int MAX_BROWSE_BYTES = 4 * 1024 * 1024;

    private final BrokerContext broker;
    private final HttpReplies replies;
    private final TopicResolver topics;

    ConsoleRoutes(BrokerContext broker, HttpReplies replies) {
        this.broker = broker;
        this.replies = replies;
        this.topics = new TopicResolver(broker);
    }

    void mount(Router router) {
        router.get("/api/v1/console/broker").handler(this::identity);
        router.get("/api/v1/broker/tps-history").handler(this::tpsHistory);
        router.get("/api/v1/topics/:topic/queues/:queueId/messages").handler(this::browse);
        router.post("/api/v1/messages/:msgId/resend").handler(this::resend);
    }

    private void identity(RoutingContext context) {
        BrokerRole role = broker.role().current();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("role", "broker");
        view.put("clusterName", broker.identity().clusterName());
        view.put("brokerName", broker.identity().brokerName());
        view.put("brokerId", role.brokerId());
        view.put("brokerAddr", broker.identity().brokerAddr());
        view.put("brokerRole", role.brokerRole());
        view.put("fenced", role.isFenced());
        view.put("masterEpoch", role.masterEpoch());
        view.put("controllerMode", broker.config().controllerMode().enableControllerMode());
        view.put("version", VERSION_DESC);
        view.put("adminTokenSet", !broker.config().adminToken().isEmpty());
        replies.send(context, 200, view);
    }

    /** {@code ?stepMs=} (default 5000): put/get TPS over the last ten minutes, as [timeMs, perSecond] points. */
    private void tpsHistory(RoutingContext context) {
        long stepMs = RequestValues.queryLong(context, "stepMs", DEFAULT_HISTORY_STEP_MS);
        if (stepMs < BrokerMetrics.RATE_SAMPLE_INTERVAL_MS || stepMs > MAX_HISTORY_STEP_MS) {
            throw HttpError.badRequest("stepMs must be in [" + BrokerMetrics.RATE_SAMPLE_INTERVAL_MS + ", "
                + MAX_HISTORY_STEP_MS + "], got " + stepMs);
        }
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("stepMs", stepMs);
        view.put("putTps", points(broker.metrics().putHistory(stepMs)));
        view.put("getTps", points(broker.metrics().getHistory(stepMs)));
        replies.send(context, 200, view);
    }

    private static List<List<Number>> points(List<RateWindow.RatePoint> history) {
        return history.stream().map(point -> List.<Number>of(point.timeMs(), point.perSecond())).toList();
    }

    private void browse(RoutingContext context) {
        TopicConfig config = requireTopic(context.pathParam("topic"));
        int queueCount = Math.max(config.readQueueNums(), config.writeQueueNums());
        int queueId = parseQueueId(context.pathParam("queueId"), queueCount);
        long offset = RequestValues.queryLong(context, "offset", -1);
        long maxNum = RequestValues.queryLong(context, "maxNum", DEFAULT_BROWSE_NUM);
        if (maxNum < 1) {
            throw HttpError.badRequest("maxNum must be >= 1, got " + maxNum);
        }
        int maxCount = (int) Math.min(maxNum, MAX_BROWSE_NUM);
        String topic = config.topicName();
        replies.reply(context, broker.store().read(() -> {
            long minOffset = broker.store().store().getMinOffsetInQueue(topic, queueId);
            long maxOffset = broker.store().store().getMaxOffsetInQueue(topic, queueId);
            // No offset: the newest page, so a DLQ shows its latest dead letters first.
            long from = offset >= 0 ? offset : Math.max(minOffset, maxOffset - maxCount);
            GetMessageResult result = broker.store().store().getMessages(topic, queueId, from, maxCount,
                MAX_BROWSE_BYTES, TagFilter.ALL);
            List<Map<String, Object>> messages = new ArrayList<>();
            result.messages().forEach(found -> messages.add(MessageView.of(StoredMessage.decode(found.record()))));
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("topic", topic);
            view.put("queueId", queueId);
            view.put("minOffset", minOffset);
            view.put("maxOffset", maxOffset);
            view.put("offset", from);
            view.put("nextOffset", result.nextBeginOffset());
            view.put("messages", messages);
            return view;
        }));
    }

    private void resend(RoutingContext context) {
        String msgId = context.pathParam("msgId");
        if (!MessageRoutes.isOffsetMsgId(msgId)) {
            throw HttpError.badRequest("msgId " + msgId + " is not an offset msgId (32 or 56 hex characters)");
        }
        JsonObject body = RequestValues.body(context);
        String group = RequestValues.requiredString(body, "group");
        SlaveWriteGuard.requireWritable(broker);
        if (broker.groups().get(group) == null && broker.clients().consumerGroup(group) == null) {
            throw HttpError.notFound("consumer group " + group + " does not exist");
        }
        long commitLogOffset = Long.parseUnsignedLong(msgId.substring(msgId.length() - 16), 16);
        TopicConfig retryTopic = topics.retryTopic(group);
        Future<Map<String, Object>> resent = broker.store().read(() -> lookUp(msgId, commitLogOffset))
            .compose(original -> {
                MessageToStore copy = copyFor(original, retryTopic);
                return broker.store().append(copy).map(result -> {
                    if (!result.isOk()) {
                        throw new IllegalStateException("resend of " + msgId + " to " + retryTopic.topicName()
                            + " not stored: " + result.status() + " " + result.remark());
                    }
                    Map<String, Object> view = new LinkedHashMap<>();
                    view.put("msgId", msgId);
                    view.put("group", group);
                    view.put("topic", copy.topic());
                    view.put("queueId", copy.queueId());
                    view.put("queueOffset", result.queueOffset());
                    view.put("commitLogOffset", result.commitLogOffset());
                    return view;
                });
            });
        replies.reply(context, resent);
    }

    /** Reader thread. */
    private StoredMessage lookUp(String msgId, long commitLogOffset) {
        ByteBuffer record = broker.store().store().lookMessageByOffset(commitLogOffset);
        StoredMessage message = record == null ? null : StoredMessage.decode(record);
        if (message == null || !message.offsetMsgId().equalsIgnoreCase(msgId)) {
            throw HttpError.notFound("no message with id " + msgId);
        }
        return message;
    }

    private static MessageToStore copyFor(StoredMessage original, TopicConfig retryTopic) {
        Map<String, String> properties = original.propertyMap();
        String originalTopic = properties.getOrDefault(MessageConst.DLQ_ORIGIN_TOPIC,
            properties.getOrDefault(MessageConst.RETRY_TOPIC, original.topic()));
        properties.put(MessageConst.RETRY_TOPIC, originalTopic);
        properties.remove(MessageConst.DELAY_TIME_LEVEL);
        properties.putIfAbsent(MessageConst.ORIGIN_MESSAGE_ID, original.offsetMsgId());
        int queueId = ThreadLocalRandom.current().nextInt(Math.max(1, retryTopic.writeQueueNums()));
        return original.copyTo(retryTopic.topicName(), queueId, properties, 0);
    }

    private TopicConfig requireTopic(String topic) {
        TopicConfig config = broker.topics().get(topic);
        if (config == null) {
            throw HttpError.notFound("topic " + topic + " does not exist");
        }
        return config;
    }

    private static int parseQueueId(String text, int queueCount) {
        try {
            int queueId = Integer.parseInt(text);
            if (queueId >= 0 && queueId < queueCount) {
                return queueId;
            }
        } catch (NumberFormatException e) {
            // the message below says what was wrong
        }
        throw HttpError.badRequest("queueId must be an integer in [0, " + queueCount + "), got " + text);
    }
}
