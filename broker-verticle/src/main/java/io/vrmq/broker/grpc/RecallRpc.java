package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.grpc.server.GrpcServer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.recall.RecallHandle;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.RecallMessageRequest;
import io.vrmq.grpc.proto.RecallMessageResponse;
import io.vrmq.grpc.proto.Status;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RecallMessage, as Apache's proxy 5.5.0 serves it: a bad topic name or a system topic is ILLEGAL_TOPIC; a topic whose
 * message.type is neither DELAY nor MIXED (or that does not exist) is MESSAGE_PROPERTY_CONFLICT_WITH_TYPE with the
 * proxy's remark; a handle that does not decode is INTERNAL_SERVER_ERROR "recall handle is invalid". Otherwise
 * RECALL_MESSAGE (370) goes to the broker over {@link BrokerLink} with the topic, the handle and the handle's broker
 * name, and its answer maps as the proxy maps its broker's codes: SUCCESS → OK with message_id = the broker's msgId,
 * TOPIC_NOT_EXIST → TOPIC_NOT_FOUND, SYSTEM_BUSY → TOO_MANY_REQUESTS, REQUEST_CODE_NOT_SUPPORTED → NOT_IMPLEMENTED,
 * anything else (a refused recall: disabled, expired, wrong topic or broker) → INTERNAL_SERVER_ERROR with the broker's
 * remark. Runs on the endpoint's event loop.
 */
final class RecallRpc {
    private final BrokerContext broker;
    private final BrokerLink link;
    private final GrpcMeters meters;
    private final GrpcAuth auth;

    RecallRpc(BrokerContext broker, BrokerLink link, GrpcMeters meters, GrpcAuth auth) {
        this.broker = broker;
        this.link = link;
        this.meters = meters;
        this.auth = auth;
    }

    void bindInto(GrpcServer server) {
        Unary.bind(server, MessagingServiceGrpcService.RecallMessage, new Unary.Shape<>(
                status -> RecallMessageResponse.newBuilder().setStatus(status).build(),
                RecallMessageResponse::getStatus),
            meters, auth.guard(this::recall));
    }

    private Future<RecallMessageResponse> recall(GrpcCall call, RecallMessageRequest request) {
        String topic = request.getTopic().getName();
        requireLegalTopic(topic);
        requireDelayTopic(topic);
        RecallHandle handle;
        try {
            handle = RecallHandle.decode(request.getRecallHandle());
        } catch (IllegalArgumentException e) {
            throw new GrpcStatusException(Code.INTERNAL_SERVER_ERROR, e.getMessage());
        }
        Map<String, String> header = new HashMap<>();
        header.put("topic", topic);
        header.put("recallHandle", request.getRecallHandle());
        header.put("bname", handle.brokerName());
        return link.call(RemotingCommand.request(RequestCode.RECALL_MESSAGE, header, null)).map(reply -> {
            RecallMessageResponse.Builder response = RecallMessageResponse.newBuilder().setStatus(statusOf(reply));
            if (reply.code() == ResponseCode.SUCCESS && reply.ext("msgId") != null) {
                response.setMessageId(reply.ext("msgId"));
            }
            return response.build();
        });
    }

    private static void requireLegalTopic(String topic) {
        String invalid = TopicNames.invalidReason(topic);
        if (invalid != null) {
            throw new GrpcStatusException(Code.ILLEGAL_TOPIC, invalid);
        }
        if (TopicNames.isSendForbidden(topic)) {
            throw new GrpcStatusException(Code.ILLEGAL_TOPIC, "cannot access system topic");
        }
    }

    /** The proxy's enableTopicMessageTypeCheck (on by default): only delay messages are recalled. */
    private void requireDelayTopic(String topic) {
        TopicConfig config = broker.topics().get(topic);
        List<MessageType> accepted = config == null ? List.of() : Routes.acceptedTypes(config);
        if (!accepted.contains(MessageType.DELAY)) {
            String declared = config == null ? "UNSPECIFIED" : accepted.size() > 1 ? "MIXED" : accepted.get(0).name();
            throw new GrpcStatusException(Code.MESSAGE_PROPERTY_CONFLICT_WITH_TYPE, "TopicMessageType validate "
                + "failed, the expected type is " + declared + ", but actual type is DELAY");
        }
    }

    /** The proxy's ResponseBuilder mapping for a broker answer (not {@link Statuses#codeOf}, which maps more). */
    private static Status statusOf(RemotingCommand reply) {
        String message = reply.remark() != null ? reply.remark() : Integer.toString(reply.code());
        return switch (reply.code()) {
            case ResponseCode.SUCCESS -> Statuses.ok();
            case ResponseCode.TOPIC_NOT_EXIST -> Statuses.of(Code.TOPIC_NOT_FOUND, message);
            case ResponseCode.SYSTEM_BUSY -> Statuses.of(Code.TOO_MANY_REQUESTS, message);
            case ResponseCode.REQUEST_CODE_NOT_SUPPORTED -> Statuses.of(Code.NOT_IMPLEMENTED, message);
            default -> Statuses.of(Code.INTERNAL_SERVER_ERROR, message);
        };
    }
}
