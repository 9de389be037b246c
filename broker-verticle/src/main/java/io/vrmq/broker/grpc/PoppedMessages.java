package io.vrmq.broker.grpc;

import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.pop.ExtraInfo;
import io.vrmq.broker.pop.PopNames;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.grpc.proto.Message;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.store.format.RecordReader;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages of a successful POP_MESSAGE reply as gRPC messages, each with its receipt handle, built the way the
 * remoting client builds its POP_CK: the message's own POP_CK when the broker set one (a redelivered message from
 * the retry topic), else {@code <ckStartOffset> popTime invisibleTime reviveQid <marker> brokerName queueId
 * queueOffset} from the reply's startOffsetInfo, then the commit-log offset. For an orderly pop the delivery count
 * comes from orderCountInfo. Pure.
 */
final class PoppedMessages {
    private PoppedMessages() {
    }

    static List<Message> of(RemotingCommand reply, String brokerName) {
        HeaderFields header = reply.header();
        long popTime = header.requiredLong("popTime");
        long invisibleTime = header.requiredLong("invisibleTime");
        int reviveQid = header.requiredInt("reviveQid");
        Map<String, Long> startOffsets = perQueue(header.optionalString("startOffsetInfo"));
        Map<String, Long> orderCounts = perQueue(header.optionalString("orderCountInfo"));
        List<Message> messages = new ArrayList<>();
        if (!reply.hasBody()) {
            return messages;
        }
        Buffer body = reply.body();
        ByteBuffer records = ByteBuffer.wrap(body.getBytes());
        int position = 0;
        while (position < records.limit()) {
            int size = RecordReader.totalSize(records, position);
            if (size <= 0 || position + size > records.limit()) {
                break;
            }
            StoredMessage stored = StoredMessage.decode(records.slice(position, size));
            position += size;
            Map<String, String> properties = stored.propertyMap();
            String marker = PopNames.marker(stored.topic());
            String extraInfo = properties.get(MessageConst.POP_CK);
            if (extraInfo == null) {
                Long start = startOffsets.get(marker + " " + stored.queueId());
                extraInfo = ExtraInfo.format(start == null ? stored.queueOffset() : start, popTime, invisibleTime,
                    reviveQid, stored.topic(), brokerName, stored.queueId(), stored.queueOffset());
            }
            int reconsumeTimes = stored.reconsumeTimes();
            if (!orderCounts.isEmpty()) {
                Long exact = orderCounts.get(marker + " qo" + stored.queueId() + "%" + stored.queueOffset());
                Long queueCount = orderCounts.get(marker + " " + stored.queueId());
                reconsumeTimes = exact != null ? exact.intValue() : queueCount != null ? queueCount.intValue()
                    : reconsumeTimes;
            }
            messages.add(MessageOut.of(stored, ReceiptHandle.format(extraInfo, stored.commitLogOffset()),
                reconsumeTimes, invisibleTime));
        }
        return messages;
    }

    /** "<marker> <queue> <value>;..." as a map from "<marker> <queue>" to the value. */
    private static Map<String, Long> perQueue(String info) {
        Map<String, Long> values = new HashMap<>();
        if (info == null || info.isBlank()) {
            return values;
        }
        for (String entry : info.split(";")) {
            String[] fields = entry.trim().split(" ");
            if (fields.length == 3) {
                try {
                    values.put(fields[0] + " " + fields[1], Long.parseLong(fields[2]));
                } catch (NumberFormatException e) {
                    // a value we cannot read falls back to the message's own
                }
            }
        }
        return values;
    }
}
