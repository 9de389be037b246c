package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vrmq.broker.pop.ExtraInfo;
import io.vrmq.grpc.proto.Status;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.HashMap;
import java.util.Map;

/**
 * ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME for a gRPC receipt handle, as Apache's proxy sends them: to the topic
 * the message was popped from (its group's retry topic for a redelivered one), at its queue and offset, with the
 * broker's receipt as extraInfo. A change's reply makes the new handle (a one-message checkpoint at the message's
 * own offset). Used by the ack RPCs and by auto-renew. Thread-safe.
 */
final class PopCalls {
    private final BrokerLink link;

    PopCalls(BrokerLink link) {
        this.link = link;
    }

    /** The outcome of a change: its status, and the new handle when it succeeded. */
    record Changed(Status status, String handle) {
    }

    Future<Status> ack(String group, String topic, ReceiptHandle handle) {
        return link.call(RemotingCommand.request(RequestCode.ACK_MESSAGE, header(group, topic, handle), null))
            .map(Statuses::fromReply);
    }

    Future<Changed> change(String group, String topic, ReceiptHandle handle, long invisibleMs, boolean isSuspend) {
        Map<String, String> header = header(group, topic, handle);
        header.put("invisibleTime", Long.toString(invisibleMs));
        header.put("suspend", Boolean.toString(isSuspend));
        String poppedTopic = handle.poppedTopic(topic, group);
        ExtraInfo receipt = handle.receipt();
        return link.call(RemotingCommand.request(RequestCode.CHANGE_MESSAGE_INVISIBLETIME, header, null))
            .map(reply -> {
                if (reply.code() != ResponseCode.SUCCESS) {
                    return new Changed(Statuses.fromReply(reply), null);
                }
                String extraInfo = ExtraInfo.format(receipt.queueOffset(), reply.header().requiredLong("popTime"),
                    reply.header().requiredLong("invisibleTime"), reply.header().requiredInt("reviveQid"),
                    poppedTopic, receipt.brokerName(), receipt.queueId(), receipt.queueOffset());
                return new Changed(Statuses.ok(), ReceiptHandle.format(extraInfo, handle.commitLogOffset()));
            });
    }

    private static Map<String, String> header(String group, String topic, ReceiptHandle handle) {
        ExtraInfo receipt = handle.receipt();
        Map<String, String> header = new HashMap<>();
        header.put("consumerGroup", group);
        header.put("topic", handle.poppedTopic(topic, group));
        header.put("queueId", Integer.toString(receipt.queueId()));
        header.put("extraInfo", handle.extraInfo());
        header.put("offset", Long.toString(receipt.queueOffset()));
        return header;
    }
}
