package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.grpc.server.GrpcServer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.broker.pop.PopConfig;
import io.vrmq.grpc.proto.AckMessageEntry;
import io.vrmq.grpc.proto.AckMessageRequest;
import io.vrmq.grpc.proto.AckMessageResponse;
import io.vrmq.grpc.proto.AckMessageResultEntry;
import io.vrmq.grpc.proto.ChangeInvisibleDurationRequest;
import io.vrmq.grpc.proto.ChangeInvisibleDurationResponse;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.ForwardMessageToDeadLetterQueueRequest;
import io.vrmq.grpc.proto.ForwardMessageToDeadLetterQueueResponse;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.Status;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * AckMessage, ChangeInvisibleDuration and ForwardMessageToDeadLetterQueue, on the broker's POP requests
 * ({@link PopCalls}): one ACK_MESSAGE per entry, one CHANGE_MESSAGE_INVISIBLETIME, and CONSUMER_SEND_MSG_BACK with
 * delay level -1 (straight to the group's DLQ) followed by an ack. A handle an auto-renew replaced is swapped for the
 * latest one first ({@link HandleRenewals#take}). An expired handle is refused with INVALID_RECEIPT_HANDLE before
 * the broker is asked, as Apache's proxy refuses it (its broker would answer SUCCESS and change nothing). Runs on the
 * endpoint's event loop.
 */
final class AckRpcs {
    private final BrokerContext broker;
    private final PopConfig popConfig;
    private final BrokerLink link;
    private final GrpcAuth auth;
    private final PopCalls pop;
    private final HandleRenewals renewals;
    private final GrpcMeters meters;

    AckRpcs(BrokerContext broker, PopConfig popConfig, BrokerLink link, PopCalls pop, HandleRenewals renewals,
            GrpcMeters meters, GrpcAuth auth) {
        this.broker = broker;
        this.popConfig = popConfig;
        this.link = link;
        this.pop = pop;
        this.renewals = renewals;
        this.meters = meters;
        this.auth = auth;
    }

    void bindInto(GrpcServer server) {
        Unary.bind(server, MessagingServiceGrpcService.AckMessage, new Unary.Shape<>(
                status -> AckMessageResponse.newBuilder().setStatus(status).build(), AckMessageResponse::getStatus),
            meters, auth.guard(this::ack));
        Unary.bind(server, MessagingServiceGrpcService.ChangeInvisibleDuration, new Unary.Shape<>(
                status -> ChangeInvisibleDurationResponse.newBuilder().setStatus(status).build(),
                ChangeInvisibleDurationResponse::getStatus),
            meters, auth.guard(this::change));
        Unary.bind(server, MessagingServiceGrpcService.ForwardMessageToDeadLetterQueue, new Unary.Shape<>(
                status -> ForwardMessageToDeadLetterQueueResponse.newBuilder().setStatus(status).build(),
                ForwardMessageToDeadLetterQueueResponse::getStatus),
            meters, auth.guard(this::forwardToDeadLetterQueue));
    }

    private Future<AckMessageResponse> ack(GrpcCall call, AckMessageRequest request) {
        SubscriptionGroupConfig group = Groups.require(broker, request.getGroup());
        String topic = topicOf(request.getTopic().getName());
        List<Future<AckMessageResultEntry>> results = new ArrayList<>();
        for (AckMessageEntry entry : request.getEntriesList()) {
            AckMessageResultEntry.Builder result = AckMessageResultEntry.newBuilder()
                .setMessageId(entry.getMessageId()).setReceiptHandle(entry.getReceiptHandle());
            results.add(renewals.take(entry.getReceiptHandle())
                .compose(latest -> pop.ack(group.groupName(), topic, liveHandle(latest)))
                .recover(error -> Future.succeededFuture(Statuses.fromFailure(error)))
                .map(status -> result.setStatus(status).build()));
        }
        return Future.all(results).map(done -> {
            AckMessageResponse.Builder reply = AckMessageResponse.newBuilder();
            Status first = null;
            boolean isMixed = false;
            for (Future<AckMessageResultEntry> result : results) {
                reply.addEntries(result.result());
                Status status = result.result().getStatus();
                if (first == null) {
                    first = status;
                } else if (first.getCode() != status.getCode()) {
                    isMixed = true;
                }
            }
            return reply.setStatus(first == null ? Statuses.ok()
                : isMixed ? Statuses.of(Code.MULTIPLE_RESULTS, "entries differ") : first).build();
        });
    }

    private Future<ChangeInvisibleDurationResponse> change(GrpcCall call, ChangeInvisibleDurationRequest request) {
        SubscriptionGroupConfig group = Groups.require(broker, request.getGroup());
        String topic = topicOf(request.getTopic().getName());
        long invisibleMs = SettingsReply.millisOf(request.getInvisibleDuration());
        if (invisibleMs < 0 || invisibleMs > popConfig.maxInvisibleTimeMills()) {
            throw new GrpcStatusException(Code.ILLEGAL_INVISIBLE_TIME, "invisible duration " + invisibleMs
                + " ms is out of 0.." + popConfig.maxInvisibleTimeMills() + " ms");
        }
        boolean isSuspend = request.hasSuspend() && request.getSuspend();
        return renewals.take(request.getReceiptHandle())
            .compose(latest -> pop.change(group.groupName(), topic, liveHandle(latest), invisibleMs, isSuspend))
            .map(changed -> {
                ChangeInvisibleDurationResponse.Builder answer = ChangeInvisibleDurationResponse.newBuilder()
                    .setStatus(changed.status());
                if (changed.handle() != null) {
                    answer.setReceiptHandle(changed.handle());
                }
                return answer.build();
            });
    }

    private Future<ForwardMessageToDeadLetterQueueResponse> forwardToDeadLetterQueue(
        GrpcCall call, ForwardMessageToDeadLetterQueueRequest request) {
        SubscriptionGroupConfig group = Groups.require(broker, request.getGroup());
        String topic = topicOf(request.getTopic().getName());
        return renewals.take(request.getReceiptHandle()).compose(latest -> {
            ReceiptHandle handle = ReceiptHandle.parse(latest);
            Map<String, String> header = new HashMap<>();
            header.put("offset", Long.toString(handle.commitLogOffset()));
            header.put("group", group.groupName());
            header.put("delayLevel", "-1");
            header.put("originMsgId", request.getMessageId());
            header.put("originTopic", handle.poppedTopic(topic, group.groupName()));
            header.put("unitMode", "false");
            header.put("maxReconsumeTimes", Integer.toString(Math.max(0, request.getMaxDeliveryAttempts() - 1)));
            return link.call(RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK, header, null))
                .compose(reply -> {
                    if (reply.code() != ResponseCode.SUCCESS) {
                        return Future.succeededFuture(Statuses.fromReply(reply));
                    }
                    // In the DLQ now: the message must not come back from its invisible time.
                    return pop.ack(group.groupName(), topic, handle)
                        .recover(error -> Future.succeededFuture(Statuses.ok()));
                });
        }).map(status -> ForwardMessageToDeadLetterQueueResponse.newBuilder().setStatus(status).build());
    }

    private ReceiptHandle liveHandle(String text) {
        ReceiptHandle handle = ReceiptHandle.parse(text);
        if (handle.isExpired(System.currentTimeMillis())) {
            throw new GrpcStatusException(Code.INVALID_RECEIPT_HANDLE, "receipt handle is expired");
        }
        return handle;
    }

    private static String topicOf(String topic) {
        if (topic.isBlank()) {
            throw new GrpcStatusException(Code.ILLEGAL_TOPIC, "topic name cannot be empty");
        }
        return topic;
    }
}
