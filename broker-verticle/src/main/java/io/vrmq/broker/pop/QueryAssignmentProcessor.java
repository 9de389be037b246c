package io.vrmq.broker.pop;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RocketMQ's QueryAssignmentProcessor: QUERY_ASSIGNMENT (400), the queues a client of a group consumes when the
 * broker balances them (a 5.x push consumer with clientRebalance off), each tagged PULL or POP by the group's request
 * mode; SET_MESSAGE_REQUEST_MODE (401), which switches a group to POP ({@code mqadmin setConsumeMode -m POP}); and
 * GET_ALL_MESSAGE_REQUEST_MODE (402) for a slave's copy. Retry topics ({@code %RETRY%...}) are always PULL. The
 * topic's queues come from the NameServer's route ({@link TopicQueues}); the group's clients from their heartbeats.
 * Runs on the broker's context.
 */
public final class QueryAssignmentProcessor {
    private static final String BROADCASTING = "BROADCASTING";
    private static final String PULL = "PULL";
    private static final String POP = "POP";

    private final BrokerContext broker;
    private final PopConfig config;
    private final RequestModeTable modes;
    private final TopicQueues topicQueues;

    QueryAssignmentProcessor(BrokerContext broker, PopConfig config, RequestModeTable modes, TopicQueues topicQueues) {
        this.broker = broker;
        this.config = config;
        this.modes = modes;
        this.topicQueues = topicQueues;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.QUERY_ASSIGNMENT, this::queryAssignment);
        table.register(RequestCode.SET_MESSAGE_REQUEST_MODE, this::setRequestMode);
        table.register(RequestCode.GET_ALL_MESSAGE_REQUEST_MODE, (connection, request) -> Future.succeededFuture(
            RemotingCommand.success(request, broker.json().encode(modes.wrapper()))));
    }

    private Future<RemotingCommand> queryAssignment(RemotingConnection connection, RemotingCommand request) {
        JsonNode body = broker.json().decode(request.body(), JsonNode.class);
        String topic = body.path("topic").asText("");
        String group = body.path("consumerGroup").asText("");
        String clientId = body.path("clientId").asText("");
        String strategy = body.path("strategyName").asText(QueueAllocation.AVERAGELY);
        boolean isBroadcasting = BROADCASTING.equals(body.path("messageModel").asText(""));
        RequestModeTable.RequestMode mode = modeOf(topic, group);
        return topicQueues.readableQueues(topic).map(queues -> {
            Collection<QueueAllocation.AssignedQueue> assigned = assign(queues, group, clientId, strategy,
                isBroadcasting, mode);
            Map<String, Object> answer = new LinkedHashMap<>();
            if (assigned != null) {
                List<Map<String, Object>> assignments = new ArrayList<>();
                for (QueueAllocation.AssignedQueue queue : assigned) {
                    assignments.add(Map.of("messageQueue", Map.of("topic", queue.topic(), "brokerName",
                        queue.brokerName(), "queueId", queue.queueId()), "mode", mode.mode()));
                }
                answer.put("messageQueueAssignments", assignments);
            }
            return RemotingCommand.success(request, broker.json().encode(answer));
        });
    }

    /** RocketMQ's doLoadBalance; null means "no valid answer" (the client keeps what it has). */
    private Collection<QueueAllocation.AssignedQueue> assign(List<QueueAllocation.AssignedQueue> queues,
                                                             String group, String clientId, String strategy,
                                                             boolean isBroadcasting,
                                                             RequestModeTable.RequestMode mode) {
        if (queues.isEmpty()) {
            return null;
        }
        if (isBroadcasting || !config.serverLoadBalancerEnable()) {
            return queues;
        }
        ConsumerGroupInfo online = broker.clients().consumerGroup(group);
        if (online == null || !QueueAllocation.isKnownStrategy(strategy)) {
            return null;
        }
        List<String> clientIds = new ArrayList<>(online.clientIds());
        clientIds.sort(null);
        if (mode.isPop()) {
            return QueueAllocation.allocateForPop(strategy, clientId, queues, clientIds, mode.popShareQueueNum());
        }
        return QueueAllocation.allocate(strategy, clientId, queues, clientIds);
    }

    /** The group's set mode, else the default: PULL for retry topics, defaultMessageRequestMode otherwise. */
    private RequestModeTable.RequestMode modeOf(String topic, String group) {
        RequestModeTable.RequestMode set = modes.get(topic, group);
        if (set != null) {
            return set;
        }
        String mode = TopicNames.isRetryTopic(topic) ? PULL : config.defaultMessageRequestMode();
        return new RequestModeTable.RequestMode(topic, group, mode, POP.equals(mode)
            ? config.defaultPopShareQueueNum() : 0);
    }

    private Future<RemotingCommand> setRequestMode(RemotingConnection connection, RemotingCommand request) {
        JsonNode body = broker.json().decode(request.body(), JsonNode.class);
        String topic = body.path("topic").asText("");
        String group = body.path("consumerGroup").asText("");
        String mode = body.path("mode").asText(PULL);
        if (!Set.of(PULL, POP).contains(mode)) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, "mode " + mode + " is neither PULL "
                + "nor POP");
        }
        if (TopicNames.isRetryTopic(topic)) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "retry topic is not allowed to set mode");
        }
        if (broker.topics().get(topic) == null) {
            throw new RemotingCommandException(ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist");
        }
        if (broker.groups().findOrCreate(group) == null) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                "subscription group does not exist");
        }
        RequestModeTable.RequestMode set = new RequestModeTable.RequestMode(topic, group, mode,
            body.path("popShareQueueNum").asInt(0));
        return modes.set(set).map(persisted -> RemotingCommand.response(request, ResponseCode.SUCCESS, null, null,
            null));
    }
}
