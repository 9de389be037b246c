package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import io.vertx.grpc.server.GrpcServerResponse;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.broker.pop.PopConfig;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.FilterType;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.ReceiveMessageRequest;
import io.vrmq.grpc.proto.ReceiveMessageResponse;
import io.vrmq.grpc.proto.Status;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ReceiveMessage (server streaming) as a POP_MESSAGE of every queue of the topic on this broker (queue id -1, as the
 * proxy pops), held by the broker's long polling: the reply stream is a status, then one message per message, then
 * a delivery timestamp, and then the stream ends (clients read until it does). Nothing found after the poll:
 * MESSAGE_NOT_FOUND "no new message", which clients read as an empty result. Invisible time: the request's, within
 * minInvisibleTimeMillsForRecv..maxInvisibleTimeMills (ILLEGAL_INVISIBLE_TIME), or defaultInvisibleTimeMills for a
 * push consumer's auto_renew receive without one. Poll time: the request's long_polling_timeout clamped to the
 * configured range and cut to fit the call's deadline (ILLEGAL_POLLING_TIME when the deadline leaves less than the
 * minimum). An orderly group pops orderly, with the client's attempt id. What an auto_renew receive hands out is
 * renewed ({@link HandleRenewals}). Runs on the endpoint's event loop.
 */
final class ReceiveRpc {
    private static final Logger log = LoggerFactory.getLogger(ReceiveRpc.class);
    /** Kept free of the call's deadline for the reply to travel back (the proxy's reserve is of this order). */
    private static final long DEADLINE_RESERVE_MS = 500;
    private static final int INIT_MODE_MAX = 1;

    private final BrokerContext broker;
    private final GrpcConfig config;
    private final PopConfig popConfig;
    private final BrokerLink link;
    private final GrpcAuth auth;
    private final HandleRenewals renewals;
    private final GrpcMeters meters;

    ReceiveRpc(BrokerContext broker, GrpcConfig config, PopConfig popConfig, BrokerLink link,
               HandleRenewals renewals, GrpcMeters meters, GrpcAuth auth) {
        this.broker = broker;
        this.config = config;
        this.popConfig = popConfig;
        this.link = link;
        this.renewals = renewals;
        this.meters = meters;
        this.auth = auth;
    }

    void bindInto(GrpcServer server) {
        server.callHandler(MessagingServiceGrpcService.ReceiveMessage, request -> {
            long startNanos = System.nanoTime();
            GrpcCall call = GrpcCall.of(request);
            CallCancellation cancellation = CallCancellation.watch(request);
            request.last()
                .compose(message -> auth.guard(this::receive).apply(call, message))
                .recover(error -> {
                    if (!(error instanceof GrpcStatusException) && !cancellation.isCancelled()) {
                        log.warn("ReceiveMessage from {} ({}) failed", call.clientId(), call.remoteAddress(), error);
                    }
                    return Future.succeededFuture(new Received(Statuses.fromFailure(error), List.of(), null));
                })
                .onSuccess(received -> answer(request, call, cancellation, received, startNanos));
        });
    }

    /** @param renewedGroup the group whose auto_renew receive this is, renewed once delivered; else null */
    private record Received(Status status, List<Message> messages, String renewedGroup) {
    }

    private Future<Received> receive(GrpcCall call, ReceiveMessageRequest request) {
        if (!call.hasClientId()) {
            throw new GrpcStatusException(Code.CLIENT_ID_REQUIRED, GrpcCall.CLIENT_ID + " is required");
        }
        SubscriptionGroupConfig group = Groups.require(broker, request.getGroup());
        String topic = request.getMessageQueue().getTopic().getName();
        if (topic.isBlank()) {
            throw new GrpcStatusException(Code.ILLEGAL_TOPIC, "topic name cannot be empty");
        }
        long invisibleMs = invisibleTime(request);
        long pollMs = pollTime(call, request);
        int batch = Math.max(1, Math.min(request.getBatchSize(), config.receiveBatchSize()));
        Map<String, String> header = new HashMap<>();
        header.put("consumerGroup", group.groupName());
        header.put("topic", topic);
        header.put("queueId", "-1");
        header.put("maxMsgNums", Integer.toString(batch));
        header.put("invisibleTime", Long.toString(invisibleMs));
        header.put("pollTime", Long.toString(pollMs));
        header.put("bornTime", Long.toString(System.currentTimeMillis()));
        header.put("initMode", Integer.toString(INIT_MODE_MAX));
        header.put("order", Boolean.toString(group.consumeMessageOrderly()));
        if (request.hasFilterExpression() && !request.getFilterExpression().getExpression().isBlank()) {
            boolean isSql = request.getFilterExpression().getType() == FilterType.SQL;
            header.put("expType", isSql ? "SQL92" : "TAG");
            header.put("exp", request.getFilterExpression().getExpression());
        }
        if (request.hasAttemptId()) {
            header.put("attemptId", request.getAttemptId());
        }
        return link.call(RemotingCommand.request(RequestCode.POP_MESSAGE, header, null), pollMs)
            .map(reply -> switch (reply.code()) {
                case ResponseCode.SUCCESS -> found(group.groupName(), request.getAutoRenew(), reply);
                case ResponseCode.POLLING_TIMEOUT, ResponseCode.NO_MESSAGE, ResponseCode.PULL_NOT_FOUND ->
                    noMessage();
                default -> new Received(Statuses.fromReply(reply), List.of(), null);
            });
    }

    private Received found(String group, boolean isAutoRenew, RemotingCommand reply) {
        List<Message> messages = PoppedMessages.of(reply, broker.config().brokerName());
        return messages.isEmpty() ? noMessage() : new Received(Statuses.ok(), messages, isAutoRenew ? group : null);
    }

    private static Received noMessage() {
        return new Received(Statuses.of(Code.MESSAGE_NOT_FOUND, "no new message"), List.of(), null);
    }

    private long invisibleTime(ReceiveMessageRequest request) {
        if (!request.hasInvisibleDuration()) {
            if (request.getAutoRenew()) {
                return config.defaultInvisibleTimeMills();
            }
            throw new GrpcStatusException(Code.ILLEGAL_INVISIBLE_TIME, "invisible duration is required");
        }
        long ms = SettingsReply.millisOf(request.getInvisibleDuration());
        if (ms < popConfig.minInvisibleTimeMillsForRecv() || ms > popConfig.maxInvisibleTimeMills()) {
            throw new GrpcStatusException(Code.ILLEGAL_INVISIBLE_TIME, "invisible duration " + ms + " ms is out of "
                + popConfig.minInvisibleTimeMillsForRecv() + ".." + popConfig.maxInvisibleTimeMills() + " ms");
        }
        return ms;
    }

    private long pollTime(GrpcCall call, ReceiveMessageRequest request) {
        long requested = request.hasLongPollingTimeout() ? SettingsReply.millisOf(request.getLongPollingTimeout())
            : config.maxLongPollingTimeoutMs();
        long poll = Math.max(config.minLongPollingTimeoutMs(), Math.min(requested, config.maxLongPollingTimeoutMs()));
        if (call.timeoutMs() > 0) {
            long remaining = call.timeoutMs() - DEADLINE_RESERVE_MS;
            if (remaining < config.minLongPollingTimeoutMs()) {
                throw new GrpcStatusException(Code.ILLEGAL_POLLING_TIME, "the call's deadline leaves "
                    + Math.max(0, remaining) + " ms < the minimum long-polling time "
                    + config.minLongPollingTimeoutMs() + " ms");
            }
            poll = Math.min(poll, remaining);
        }
        return poll;
    }

    /**
     * A cancelled receive's messages are not handed out, nor renewed: they stay invisible until their invisible
     * time ends and then come back, as for a client that died holding them.
     */
    private void answer(GrpcServerRequest<ReceiveMessageRequest, ReceiveMessageResponse> request, GrpcCall call,
                        CallCancellation cancellation, Received received, long startNanos) {
        GrpcServerResponse<ReceiveMessageRequest, ReceiveMessageResponse> stream = request.response();
        boolean isWritten = cancellation.answer(() -> {
            stream.write(ReceiveMessageResponse.newBuilder().setStatus(received.status()).build());
            for (Message message : received.messages()) {
                stream.write(ReceiveMessageResponse.newBuilder().setMessage(message).build());
            }
            stream.write(ReceiveMessageResponse.newBuilder()
                .setDeliveryTimestamp(MessageOut.timestamp(System.currentTimeMillis())).build());
            stream.end();
        });
        if (isWritten) {
            if (received.renewedGroup() != null) {
                renewals.track(call.clientId(), received.renewedGroup(), received.messages(),
                    System.currentTimeMillis());
            }
            meters.answered("ReceiveMessage", received.status().getCode(), startNanos);
        } else {
            meters.cancelled("ReceiveMessage", startNanos);
        }
    }
}
