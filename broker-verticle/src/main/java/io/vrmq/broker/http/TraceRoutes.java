package io.vrmq.broker.http;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.broker.trace.MessageTraceView;
import io.vrmq.broker.trace.TraceBodies;
import io.vrmq.broker.trace.TraceRecord;
import io.vrmq.broker.trace.TraceRecords;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.MessageStore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/messages/{msgId}/trace[?traceTopic=&topic=]}: a message's trace (msgId = the client's message
 * id, its UNIQ_KEY): the official clients' trace records for it, found in this broker's trace topic by key as
 * {@code mqadmin queryMsgTraceById} finds them (published by whom and when, each consumption with group, result and
 * cost, transaction ends), and where and when this broker stored it. The trace topic defaults to msgTraceTopicName;
 * the message's topic to the one its Pub record names. 404 when neither a record nor the message is here. Reads
 * run on the store reader pool.
 */
final class TraceRoutes {
    /** mqadmin queryMsgTraceById's default maxNum. */
    private static final int MAX_TRACE_MESSAGES = 64;

    private final BrokerContext broker;
    private final HttpReplies replies;

    TraceRoutes(BrokerContext broker, HttpReplies replies) {
        this.broker = broker;
        this.replies = replies;
    }

    void mount(Router router) {
        router.get("/api/v1/messages/:msgId/trace").handler(this::trace);
    }

    private void trace(RoutingContext context) {
        String msgId = context.pathParam("msgId");
        String traceTopic = RequestValues.query(context, "traceTopic");
        String topic = RequestValues.query(context, "topic");
        String readTopic = traceTopic != null ? traceTopic : broker.features().trace().msgTraceTopicName();
        replies.reply(context, broker.store().read(() -> find(msgId, readTopic, topic)));
    }

    /** Runs on a reader thread. */
    private Map<String, Object> find(String msgId, String traceTopic, String topic) {
        MessageStore store = broker.store().store();
        List<TraceRecord> records = new ArrayList<>();
        for (FoundMessage found : store.queryMessage(traceTopic, msgId, MAX_TRACE_MESSAGES, 0, Long.MAX_VALUE)) {
            StoredMessage traceMessage = StoredMessage.decode(found.record());
            String clientHost = traceMessage.bornHost().getAddress().getHostAddress();
            String text = TraceBodies.text(traceMessage.sysFlag(), traceMessage.body(),
                broker.config().maxMessageSize());
            if (text != null) {
                records.addAll(TraceRecords.decode(text, clientHost));
            }
        }
        Map<String, Object> view = new LinkedHashMap<>(MessageTraceView.of(msgId, records));
        String messageTopic = topic != null ? topic : publishedTopic(records, msgId);
        Map<String, Object> stored = messageTopic == null ? null : stored(store, messageTopic, msgId);
        if (stored == null && records.stream().noneMatch(record -> msgId.equals(record.msgId()))) {
            throw HttpError.notFound("no trace of message " + msgId + " in " + traceTopic
                + (messageTopic == null ? "" : " and no such message in " + messageTopic));
        }
        view.put("traceTopic", traceTopic);
        view.put("stored", stored);
        return view;
    }

    private static String publishedTopic(List<TraceRecord> records, String msgId) {
        return records.stream().filter(record -> record.type().equals(TraceRecord.PUB) && msgId.equals(record.msgId()))
            .map(record -> (String) record.fields().get("topic")).findFirst().orElse(null);
    }

    private static Map<String, Object> stored(MessageStore store, String topic, String msgId) {
        List<FoundMessage> found = store.queryMessage(topic, msgId, 1, 0, Long.MAX_VALUE);
        if (found.isEmpty()) {
            return null;
        }
        StoredMessage message = StoredMessage.decode(found.get(0).record());
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("topic", message.topic());
        stored.put("queueId", message.queueId());
        stored.put("queueOffset", message.queueOffset());
        stored.put("offsetMsgId", message.offsetMsgId());
        stored.put("storeTimestamp", message.storeTimestamp());
        stored.put("bornTimestamp", message.bornTimestamp());
        stored.put("bornHost", message.bornHost().getAddress().getHostAddress() + ":" + message.bornHost().getPort());
        return stored;
    }
}
