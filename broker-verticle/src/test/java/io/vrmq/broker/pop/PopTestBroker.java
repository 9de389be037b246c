package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.broker.schedule.HeldMessageBroker;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A broker for POP tests (no NameServer, small store, revive every 100 ms) and the POP requests as the official
 * 5.5.0 client writes them; a popped message comes with the receipt the client would build from the response.
 */
final class PopTestBroker {
    static final String GROUP = "POP_CG";
    static final long REVIVE_INTERVAL_MS = 100;

    private final HeldMessageBroker broker;

    private PopTestBroker(HeldMessageBroker broker) {
        this.broker = broker;
    }

    static Future<PopTestBroker> start(Vertx vertx, Path dir) {
        return start(vertx, dir, new JsonObject());
    }

    static Future<PopTestBroker> start(Vertx vertx, Path dir, JsonObject overrides) {
        return HeldMessageBroker.start(vertx, dir, new JsonObject().put("reviveInterval", REVIVE_INTERVAL_MS)
            .mergeIn(overrides)).map(PopTestBroker::new);
    }

    HeldMessageBroker broker() {
        return broker;
    }

    Future<PopTestBroker> restart() {
        return broker.restart().map(this);
    }

    Future<Void> stop() {
        return broker.stop();
    }

    /**
     * Sends {@code count} messages "m0".. to queue {@code queueId} with tag TagA; completes once a pop can see them
     * (a send is answered when stored, the queue entry follows a moment later).
     */
    Future<Void> send(String topic, int queueId, int count) {
        Future<Long> sent = maxOffset(topic, queueId);
        for (int i = 0; i < count; i++) {
            String body = "m" + i;
            sent = sent.compose(before -> broker.send(topic, queueId, Map.of(MessageConst.TAGS, "TagA"), body)
                .map(TestBrokerRequests::requireSuccess).map(before));
        }
        return sent.compose(before -> broker.poll(() -> maxOffset(topic, queueId), max -> max >= before + count,
            5_000)).mapEmpty();
    }

    private Future<Long> maxOffset(String topic, int queueId) {
        return broker.invoke(RequestCode.GET_MAX_OFFSET, Map.of("topic", topic, "queueId",
            Integer.toString(queueId)), null).map(response -> response.code() == ResponseCode.SUCCESS
            ? Long.parseLong(response.ext("offset")) : 0L);
    }

    Map<String, String> popHeader(String topic, int queueId, int maxMsgNums, long invisibleTime, long pollTime,
                                  boolean isOrder) {
        Map<String, String> header = new HashMap<>();
        header.put("consumerGroup", GROUP);
        header.put("topic", topic);
        header.put("queueId", Integer.toString(queueId));
        header.put("maxMsgNums", Integer.toString(maxMsgNums));
        header.put("invisibleTime", Long.toString(invisibleTime));
        header.put("pollTime", Long.toString(pollTime));
        header.put("bornTime", Long.toString(System.currentTimeMillis()));
        header.put("initMode", "0");
        header.put("expType", "TAG");
        header.put("exp", "*");
        header.put("order", Boolean.toString(isOrder));
        return header;
    }

    Future<RemotingCommand> popRaw(Map<String, String> header) {
        return broker.invoke(RequestCode.POP_MESSAGE, header, null);
    }

    Future<Popped> pop(String topic, int queueId, int maxMsgNums, long invisibleTime, long pollTime,
                       boolean isOrder) {
        return popRaw(popHeader(topic, queueId, maxMsgNums, invisibleTime, pollTime, isOrder)).map(Popped::of);
    }

    /** ACK_MESSAGE as the client sends it for a popped message. */
    Future<RemotingCommand> ack(PoppedMessage message) {
        return broker.invoke(RequestCode.ACK_MESSAGE, ackHeader(message), null);
    }

    Future<RemotingCommand> change(PoppedMessage message, long invisibleTime) {
        Map<String, String> header = ackHeader(message);
        header.put("invisibleTime", Long.toString(invisibleTime));
        return broker.invoke(RequestCode.CHANGE_MESSAGE_INVISIBLETIME, header, null);
    }

    private static Map<String, String> ackHeader(PoppedMessage message) {
        ExtraInfo receipt = ExtraInfo.parse(message.receipt());
        Map<String, String> header = new HashMap<>();
        header.put("consumerGroup", GROUP);
        header.put("topic", PopNames.realTopic(message.message().topic(), GROUP, receipt.retryMarker()));
        header.put("queueId", Integer.toString(receipt.queueId()));
        header.put("extraInfo", message.receipt());
        header.put("offset", Long.toString(receipt.queueOffset()));
        return header;
    }

    /** A popped message and the receipt the official client builds for it (POP_CK). */
    record PoppedMessage(StoredMessage message, String receipt) {
        String body() {
            return HeldMessageBroker.bodyText(message);
        }

        /** What the client reports: the delivery count from orderCountInfo for orderly pops, else the stored one. */
        int reconsumeTimes(Popped popped) {
            return popped.orderCount(this) >= 0 ? popped.orderCount(this) : message.reconsumeTimes();
        }
    }

    /** A POP_MESSAGE response with its messages. */
    record Popped(RemotingCommand response, List<PoppedMessage> messages) {
        static Popped of(RemotingCommand response) {
            if (response.code() != ResponseCode.SUCCESS) {
                return new Popped(response, List.of());
            }
            Map<String, Long> starts = infoMap(response.ext("startOffsetInfo"));
            List<PoppedMessage> messages = new ArrayList<>();
            for (StoredMessage message : TestBrokerRequests.decodeAll(response.body())) {
                String ck = message.propertyMap().get(MessageConst.POP_CK);
                if (ck == null) {
                    String marker = PopNames.marker(message.topic());
                    ck = ExtraInfo.format(starts.get(marker + "@" + message.queueId()),
                        Long.parseLong(response.ext("popTime")), Long.parseLong(response.ext("invisibleTime")),
                        Integer.parseInt(response.ext("reviveQid")), message.topic(), "broker-a",
                        message.queueId(), message.queueOffset());
                }
                messages.add(new PoppedMessage(message, ck));
            }
            return new Popped(response, messages);
        }

        int code() {
            return response.code();
        }

        List<String> bodies() {
            return messages.stream().map(PoppedMessage::body).toList();
        }

        /** orderCountInfo's count for the message, -1 when none. */
        int orderCount(PoppedMessage message) {
            String info = response.ext("orderCountInfo");
            if (info == null || info.isEmpty()) {
                return -1;
            }
            String wanted = PopNames.marker(message.message().topic()) + " qo" + message.message().queueId() + "%"
                + message.message().queueOffset() + " ";
            for (String entry : info.split(";")) {
                if (entry.startsWith(wanted)) {
                    return Integer.parseInt(entry.substring(wanted.length()));
                }
            }
            return 0;
        }

        private static Map<String, Long> infoMap(String info) {
            Map<String, Long> map = new HashMap<>();
            if (info == null || info.isEmpty()) {
                return map;
            }
            for (String entry : info.split(";")) {
                String[] fields = entry.split(" ");
                map.put(fields[0] + "@" + fields[1], Long.parseLong(fields[2]));
            }
            return map;
        }
    }
}
