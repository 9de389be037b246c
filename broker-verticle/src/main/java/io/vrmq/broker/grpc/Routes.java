package io.vrmq.broker.grpc;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.grpc.proto.Address;
import io.vrmq.grpc.proto.AddressScheme;
import io.vrmq.grpc.proto.Assignment;
import io.vrmq.grpc.proto.Broker;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.Endpoints;
import io.vrmq.grpc.proto.MessageQueue;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.Permission;
import io.vrmq.grpc.proto.QueryAssignmentRequest;
import io.vrmq.grpc.proto.QueryAssignmentResponse;
import io.vrmq.grpc.proto.QueryRouteRequest;
import io.vrmq.grpc.proto.QueryRouteResponse;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.store.format.TopicNames;

import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * QueryRoute and QueryAssignment, answered from this broker's own topic and group tables: every queue names this
 * broker with its gRPC endpoint (the host the client dialled, so it holds behind NAT, and our gRPC port), so clients
 * talk to the broker directly, without a proxy. Permissions per queue as the proxy gives them (the queues both read
 * and written are READ_WRITE, the extra read or write queues READ or WRITE); accepted message types from the topic
 * attribute {@code message.type} (none: NORMAL; MIXED: all four). Assignments as the proxy's: one queue with id -1
 * ("every queue of this broker") for a group, one per read queue for an orderly group. Thread-safe.
 */
final class Routes {
    static final String MESSAGE_TYPE_ATTRIBUTE = "message.type";
    private static final int MAX_TOPIC_CHARS = 127;
    private static final int ALL_QUEUES = -1;

    private final BrokerContext broker;
    private final IntSupplier grpcPort;

    Routes(BrokerContext broker, IntSupplier grpcPort) {
        this.broker = broker;
        this.grpcPort = grpcPort;
    }

    QueryRouteResponse queryRoute(QueryRouteRequest request) {
        TopicConfig topic = existingTopic(request.getTopic());
        Broker self = self(request.getEndpoints());
        List<MessageType> types = acceptedTypes(topic);
        int brokerPerm = broker.config().brokerPermission();
        QueryRouteResponse.Builder reply = QueryRouteResponse.newBuilder().setStatus(Statuses.ok());
        int queues = Math.max(topic.readQueueNums(), topic.writeQueueNums());
        for (int queueId = 0; queueId < queues; queueId++) {
            boolean isReadable = queueId < topic.readQueueNums()
                && io.vrmq.remoting.body.Permission.isReadable(topic.perm() & brokerPerm);
            boolean isWritable = queueId < topic.writeQueueNums()
                && io.vrmq.remoting.body.Permission.isWritable(topic.perm() & brokerPerm);
            Permission permission = isReadable && isWritable ? Permission.READ_WRITE
                : isReadable ? Permission.READ : isWritable ? Permission.WRITE : Permission.NONE;
            reply.addMessageQueues(MessageQueue.newBuilder().setTopic(request.getTopic()).setId(queueId)
                .setPermission(permission).setBroker(self).addAllAcceptMessageTypes(types));
        }
        return reply.build();
    }

    QueryAssignmentResponse queryAssignment(QueryAssignmentRequest request) {
        TopicConfig topic = existingTopic(request.getTopic());
        SubscriptionGroupConfig group = Groups.require(broker, request.getGroup());
        if (!io.vrmq.remoting.body.Permission.isReadable(topic.perm() & broker.config().brokerPermission())
            || topic.readQueueNums() == 0) {
            return QueryAssignmentResponse.newBuilder().setStatus(Statuses.of(Code.FORBIDDEN, "topic "
                + topic.topicName() + " has no readable queue on broker " + broker.config().brokerName())).build();
        }
        Broker self = self(request.getEndpoints());
        QueryAssignmentResponse.Builder reply = QueryAssignmentResponse.newBuilder().setStatus(Statuses.ok());
        List<MessageType> types = acceptedTypes(topic);
        if (group.consumeMessageOrderly()) {
            for (int queueId = 0; queueId < topic.readQueueNums(); queueId++) {
                reply.addAssignments(assignment(request.getTopic(), queueId, self, types));
            }
        } else {
            reply.addAssignments(assignment(request.getTopic(), ALL_QUEUES, self, types));
        }
        return reply.build();
    }

    /** The topic, refused as the proxy refuses it: a bad name is ILLEGAL_TOPIC, an unknown one TOPIC_NOT_FOUND. */
    TopicConfig existingTopic(Resource resource) {
        String name = resource.getName();
        if (name.isBlank() || name.length() > MAX_TOPIC_CHARS || !TopicNames.hasOnlyNameChars(name)) {
            throw new GrpcStatusException(Code.ILLEGAL_TOPIC, "topic name must be 1.." + MAX_TOPIC_CHARS
                + " characters of [%|a-zA-Z0-9_-]: " + name);
        }
        TopicConfig topic = broker.topics().get(name);
        if (topic == null) {
            throw new GrpcStatusException(Code.TOPIC_NOT_FOUND, "topic " + name + " does not exist");
        }
        return topic;
    }

    /** The message types a topic takes; a send of another type is refused (the clients check it too). */
    static List<MessageType> acceptedTypes(TopicConfig topic) {
        String declared = topic.attributes() == null ? null : topic.attributes().get(MESSAGE_TYPE_ATTRIBUTE);
        if (declared == null || declared.isBlank()) {
            return List.of(MessageType.NORMAL);
        }
        return switch (declared.trim().toUpperCase(Locale.ROOT)) {
            case "FIFO" -> List.of(MessageType.FIFO);
            case "DELAY" -> List.of(MessageType.DELAY);
            case "TRANSACTION" -> List.of(MessageType.TRANSACTION);
            case "MIXED" -> List.of(MessageType.NORMAL, MessageType.FIFO, MessageType.DELAY, MessageType.TRANSACTION);
            default -> List.of(MessageType.NORMAL);
        };
    }

    private Broker self(Endpoints requested) {
        String host = requested.getAddressesCount() > 0 && !requested.getAddresses(0).getHost().isBlank()
            ? requested.getAddresses(0).getHost() : broker.config().brokerIP1();
        Endpoints endpoints = Endpoints.newBuilder().setScheme(schemeOf(host))
            .addAddresses(Address.newBuilder().setHost(host).setPort(grpcPort.getAsInt())).build();
        return Broker.newBuilder().setName(broker.config().brokerName())
            .setId((int) brokerId()).setEndpoints(endpoints).build();
    }

    /** 0 while this broker is master: clients send only to id 0. */
    private long brokerId() {
        return broker.replication().isSlave() ? Math.max(1, broker.config().brokerId()) : 0;
    }

    private static AddressScheme schemeOf(String host) {
        if (host.indexOf(':') >= 0) {
            return AddressScheme.IPv6;
        }
        return host.chars().allMatch(c -> c == '.' || Character.isDigit(c)) ? AddressScheme.IPv4
            : AddressScheme.DOMAIN_NAME;
    }

    private static Assignment assignment(Resource topic, int queueId, Broker self, List<MessageType> types) {
        return Assignment.newBuilder().setMessageQueue(MessageQueue.newBuilder().setTopic(topic).setId(queueId)
            .setPermission(Permission.READ_WRITE).setBroker(self).addAllAcceptMessageTypes(types)).build();
    }
}
