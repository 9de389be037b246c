package io.vrmq.broker.grpc;

import io.vrmq.broker.auth.AccessRequest;
import io.vrmq.broker.auth.Action;
import io.vrmq.broker.auth.Resource;
import io.vrmq.grpc.proto.AckMessageRequest;
import io.vrmq.grpc.proto.ChangeInvisibleDurationRequest;
import io.vrmq.grpc.proto.EndTransactionRequest;
import io.vrmq.grpc.proto.ForwardMessageToDeadLetterQueueRequest;
import io.vrmq.grpc.proto.HeartbeatRequest;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.NotifyClientTerminationRequest;
import io.vrmq.grpc.proto.QueryAssignmentRequest;
import io.vrmq.grpc.proto.QueryRouteRequest;
import io.vrmq.grpc.proto.ReceiveMessageRequest;
import io.vrmq.grpc.proto.RecallMessageRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * What each RPC needs in ACL 2.0 terms, as Apache's proxy asks its authorizer, and the same resources and actions
 * as the remoting request the RPC becomes: SendMessage and EndTransaction Topic Pub (a retry topic: its Group Sub);
 * RecallMessage Topic Pub;
 * ReceiveMessage, AckMessage, ChangeInvisibleDuration, ForwardMessageToDeadLetterQueue and QueryAssignment Topic Sub
 * and Group Sub; QueryRoute Topic Pub or Sub; Heartbeat and NotifyClientTermination the consumer's Group Sub.
 * Telemetry is authenticated only: Apache's proxy also authorizes the topics and group its Settings name, but a
 * refused Settings leaves the SDK retrying its start-up for seconds, while the RPCs that follow are each authorized
 * here and fail at once with FORBIDDEN. Stateless.
 */
final class GrpcResources {
    private GrpcResources() {
    }

    /** For a request message of any served RPC; empty (authenticated only) for one that names nothing. */
    static List<AccessRequest> of(Object request) {
        List<AccessRequest> needed = new ArrayList<>(2);
        if (request instanceof QueryRouteRequest route) {
            topic(route.getTopic().getName(), needed, Action.PUB, Action.SUB);
        } else if (request instanceof QueryAssignmentRequest assignment) {
            consume(assignment.getTopic().getName(), assignment.getGroup().getName(), needed);
        } else if (request instanceof HeartbeatRequest heartbeat && heartbeat.hasGroup()) {
            group(heartbeat.getGroup().getName(), needed);
        } else if (request instanceof NotifyClientTerminationRequest termination && termination.hasGroup()) {
            group(termination.getGroup().getName(), needed);
        } else if (request instanceof io.vrmq.grpc.proto.SendMessageRequest send) {
            for (Message message : send.getMessagesList()) {
                publish(message.getTopic().getName(), needed);
            }
        } else if (request instanceof EndTransactionRequest end) {
            publish(end.getTopic().getName(), needed);
        } else if (request instanceof RecallMessageRequest recall) {
            needed.add(AccessRequest.of(Resource.topic(recall.getTopic().getName()), Action.PUB));
        } else if (request instanceof ReceiveMessageRequest receive) {
            consume(receive.getMessageQueue().getTopic().getName(), receive.getGroup().getName(), needed);
        } else if (request instanceof AckMessageRequest ack) {
            consume(ack.getTopic().getName(), ack.getGroup().getName(), needed);
        } else if (request instanceof ChangeInvisibleDurationRequest change) {
            consume(change.getTopic().getName(), change.getGroup().getName(), needed);
        } else if (request instanceof ForwardMessageToDeadLetterQueueRequest forward) {
            consume(forward.getTopic().getName(), forward.getGroup().getName(), needed);
        }
        return needed;
    }

    private static void publish(String topic, List<AccessRequest> needed) {
        needed.add(Resource.isRetryTopic(topic) ? AccessRequest.of(Resource.group(topic), Action.SUB)
            : AccessRequest.of(Resource.topic(topic), Action.PUB));
    }

    private static void consume(String topic, String group, List<AccessRequest> needed) {
        topic(topic, needed, Action.SUB);
        group(group, needed);
    }

    private static void topic(String topic, List<AccessRequest> needed, Action... actions) {
        if (!Resource.isRetryTopic(topic)) {
            needed.add(AccessRequest.of(Resource.topic(topic), actions));
        }
    }

    private static void group(String group, List<AccessRequest> needed) {
        needed.add(AccessRequest.of(Resource.group(group), Action.SUB));
    }
}
