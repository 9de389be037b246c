package io.vrmq.broker.http;

import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TagFilter;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/v1/messages}: one message by offset msgId ({@code /{msgId}}; with {@code ?topic=} a UNIQ_KEY also
 * works, through the index), messages by key in a time range ({@code ?topic=&key=&begin=&end=&maxNum=}), or one
 * message by place ({@code ?topic=&queueId=&offset=}). Lookups and decoding run on the store reader pool (records
 * are slices of mapped files); the view leaves that thread as plain values.
 */
final class MessageRoutes {
    /** Hex characters of RocketMQ's offset msgId: IPv4 store host (4 + 4 + 8 bytes), IPv6 (16 + 4 + 8 bytes). */
    private static final int IPV4_MSG_ID_CHARS = 32;
    private static final int IPV6_MSG_ID_CHARS = 56;
    private static final int OFFSET_HEX_CHARS = 16;
    /** RocketMQ's maxMsgsNumBatch and defaultQueryMaxNum for a key query. */
    private static final int MAX_QUERY_NUM = 64;
    private static final int DEFAULT_QUERY_NUM = 32;

    private final BrokerContext broker;
    private final HttpReplies replies;

    MessageRoutes(BrokerContext broker, HttpReplies replies) {
        this.broker = broker;
        this.replies = replies;
    }

    void mount(Router router) {
        router.get("/api/v1/messages/:msgId").handler(this::byId);
        router.get("/api/v1/messages").handler(this::search);
    }

    private void byId(RoutingContext context) {
        String msgId = context.pathParam("msgId");
        String topic = RequestValues.query(context, "topic");
        if (topic != null) {
            requireTopic(topic);
        }
        long commitLogOffset = isOffsetMsgId(msgId) ? Long.parseUnsignedLong(
            msgId.substring(msgId.length() - OFFSET_HEX_CHARS), 16) : -1;
        if (commitLogOffset < 0 && topic == null) {
            throw HttpError.badRequest("msgId " + msgId + " is not an offset msgId (32 or 56 hex characters); "
                + "pass ?topic= to look a UNIQ_KEY up in the index");
        }
        replies.reply(context, broker.store().read(() -> findById(msgId, commitLogOffset, topic)));
    }

    /** Runs on a reader thread. */
    private Map<String, Object> findById(String msgId, long commitLogOffset, String topic) {
        MessageStore store = broker.store().store();
        if (commitLogOffset >= 0) {
            ByteBuffer record = store.lookMessageByOffset(commitLogOffset);
            StoredMessage message = record == null ? null : StoredMessage.decode(record);
            if (message != null && message.offsetMsgId().equalsIgnoreCase(msgId)) {
                return MessageView.of(message);
            }
        }
        if (topic != null) {
            List<FoundMessage> found = store.queryMessage(topic, msgId, 1, 0, Long.MAX_VALUE);
            if (!found.isEmpty()) {
                return MessageView.of(StoredMessage.decode(found.get(0).record()));
            }
        }
        throw HttpError.notFound("no message with id " + msgId);
    }

    private void search(RoutingContext context) {
        String topic = RequestValues.query(context, "topic");
        if (topic == null) {
            throw HttpError.badRequest("query parameter 'topic' is required");
        }
        String key = RequestValues.query(context, "key");
        String queueId = RequestValues.query(context, "queueId");
        if (key != null) {
            requireTopic(topic);
            replies.reply(context, byKey(context, topic, key));
        } else if (queueId != null && RequestValues.query(context, "offset") != null) {
            TopicConfig config = requireTopic(topic);
            replies.reply(context, byPlace(config, (int) RequestValues.queryLong(context, "queueId", 0),
                RequestValues.queryLong(context, "offset", 0)));
        } else {
            throw HttpError.badRequest("give either key (with optional begin, end, maxNum) or queueId and offset");
        }
    }

    /** Newest first, at most maxNum (default 32, cap 64); an empty list when nothing matches. */
    private Future<Map<String, Object>> byKey(RoutingContext context, String topic, String key) {
        long begin = RequestValues.queryLong(context, "begin", 0);
        long end = RequestValues.queryLong(context, "end", Long.MAX_VALUE);
        long maxNum = RequestValues.queryLong(context, "maxNum", DEFAULT_QUERY_NUM);
        if (begin > end || maxNum < 1) {
            throw HttpError.badRequest("need begin <= end and maxNum >= 1, got begin " + begin + ", end " + end
                + ", maxNum " + maxNum);
        }
        int maxCount = (int) Math.min(maxNum, MAX_QUERY_NUM);
        return broker.store().read(() -> {
            List<Map<String, Object>> messages = broker.store().store().queryMessage(topic, key, maxCount, begin, end)
                .stream().map(found -> MessageView.of(StoredMessage.decode(found.record()))).toList();
            return Map.of("topic", topic, "key", key, "messages", messages);
        });
    }

    private Future<Map<String, Object>> byPlace(TopicConfig config, int queueId, long queueOffset) {
        int queueCount = Math.max(config.readQueueNums(), config.writeQueueNums());
        if (queueId < 0 || queueId >= queueCount || queueOffset < 0) {
            throw HttpError.badRequest("queueId must be in [0, " + queueCount + ") and offset >= 0, got queueId "
                + queueId + ", offset " + queueOffset);
        }
        String topic = config.topicName();
        return broker.store().read(() -> {
            GetMessageResult result = broker.store().store().getMessages(topic, queueId, queueOffset, 1, 1,
                TagFilter.ALL);
            if (result.status() != GetMessageStatus.FOUND || result.messages().isEmpty()
                || result.messages().get(0).queueOffset() != queueOffset) {
                throw HttpError.notFound("no message at " + topic + ":" + queueId + ":" + queueOffset + " ("
                    + result.status() + ", queue offsets [" + result.minOffset() + ", " + result.maxOffset() + "))");
            }
            return MessageView.of(StoredMessage.decode(result.messages().get(0).record()));
        });
    }

    private TopicConfig requireTopic(String topic) {
        TopicConfig config = broker.topics().get(topic);
        if (config == null) {
            throw HttpError.notFound("topic " + topic + " does not exist");
        }
        return config;
    }

    static boolean isOffsetMsgId(String msgId) {
        return (msgId.length() == IPV4_MSG_ID_CHARS || msgId.length() == IPV6_MSG_ID_CHARS)
            && msgId.chars().allMatch(HexFormat::isHexDigit);
    }
}
