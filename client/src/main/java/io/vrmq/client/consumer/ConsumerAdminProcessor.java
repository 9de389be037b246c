package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.message.StoredRecordDecoder;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RequestProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A push consumer's answers to the broker → client admin requests (RocketMQ's ClientRemotingProcessor):
 * <ul>
 * <li>RESET_CONSUMER_CLIENT_OFFSET (220, oneway): every assigned queue of the topic named in the ResetOffsetBody
 * restarts at its new offset, its cached messages dropped (MQClientInstance.resetOffset);</li>
 * <li>GET_CONSUMER_RUNNING_INFO (307): {@link ConsumerRunningInfoBody};</li>
 * <li>CONSUME_MESSAGE_DIRECTLY (309): the stored record in the body goes to the listener through
 * {@link DirectConsumer}; the answer is a ConsumeMessageDirectlyResult.</li>
 * </ul>
 * Requests for another group get the official client's refusal. Confined to the consumer's context.
 */
public final class ConsumerAdminProcessor implements RequestProcessor {
    private static final Logger log = LoggerFactory.getLogger(ConsumerAdminProcessor.class);
    private static final String OFFSET_TABLE = "offsetTable";

    private final RemotingJson json;
    private final String group;
    private final int maxBodyBytes;
    private final Rebalancer rebalancer;
    private final Supplier<ConsumerRunningInfoBody.Snapshot> snapshot;
    private final DirectConsumer direct;

    public ConsumerAdminProcessor(RemotingJson json, String group, int maxBodyBytes, Rebalancer rebalancer,
                                  Supplier<ConsumerRunningInfoBody.Snapshot> snapshot, DirectConsumer direct) {
        this.json = json;
        this.group = group;
        this.maxBodyBytes = maxBodyBytes;
        this.rebalancer = rebalancer;
        this.snapshot = snapshot;
        this.direct = direct;
    }

    @Override
    public Future<RemotingCommand> process(RemotingConnection connection, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.RESET_CONSUMER_CLIENT_OFFSET -> resetOffset(request);
            case RequestCode.GET_CONSUMER_RUNNING_INFO -> runningInfo(request);
            case RequestCode.CONSUME_MESSAGE_DIRECTLY -> consumeDirectly(request);
            default -> Future.succeededFuture(RemotingCommand.failure(request,
                ResponseCode.REQUEST_CODE_NOT_SUPPORTED, "request code " + request.code() + " not supported"));
        };
    }

    private Future<RemotingCommand> resetOffset(RemotingCommand request) {
        String topic = request.header().requiredString("topic");
        String requestGroup = request.header().requiredString("group");
        if (!group.equals(requestGroup) || !request.hasBody()) {
            return Future.succeededFuture();
        }
        Map<MessageQueue, Long> offsetTable = QueueKeyedJson.readOffsetTable(json,
            request.body().toString(StandardCharsets.UTF_8), OFFSET_TABLE);
        for (MessageQueue queue : Map.copyOf(rebalancer.processQueues()).keySet()) {
            Long offset = offsetTable.get(queue);
            if (queue.topic().equals(topic) && offset != null) {
                log.info("reset {} of group {} to offset {}", queue, group, offset);
                rebalancer.restart(queue, offset);
            }
        }
        return Future.succeededFuture();
    }

    private Future<RemotingCommand> runningInfo(RemotingCommand request) {
        String requestGroup = request.header().requiredString("consumerGroup");
        if (!group.equals(requestGroup)) {
            return Future.succeededFuture(notThisGroup(request, requestGroup));
        }
        boolean isJstackWanted = request.header().optionalBoolean("jstackEnable", false);
        Buffer body = ConsumerRunningInfoBody.encode(json, snapshot.get(), isJstackWanted ? jstack() : null);
        return Future.succeededFuture(RemotingCommand.success(request, body));
    }

    private Future<RemotingCommand> consumeDirectly(RemotingCommand request) {
        String requestGroup = request.header().requiredString("consumerGroup");
        if (!group.equals(requestGroup)) {
            return Future.succeededFuture(notThisGroup(request, requestGroup));
        }
        if (!request.hasBody()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "CONSUME_MESSAGE_DIRECTLY without a message body"));
        }
        ReceivedMessage message = StoredRecordDecoder.decode(request.body(), maxBodyBytes)
            .withBrokerName(request.header().optionalString("brokerName"));
        String originalTopic = message.property(MessageConst.RETRY_TOPIC);
        if (originalTopic != null && ConsumerTopics.retryTopic(group).equals(message.topic())) {
            message = message.withTopic(originalTopic);
        }
        return direct.consume(message).map(result -> RemotingCommand.success(request, json.encode(result)));
    }

    private static RemotingCommand notThisGroup(RemotingCommand request, String requestGroup) {
        return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
            String.format("The Consumer Group <%s> not exist in this consumer", requestGroup));
    }

    /** Every thread's stack, as UtilAll.jstack formats it closely enough for a human reading mqadmin output. */
    private static String jstack() {
        StringBuilder text = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, frames) -> {
            text.append(String.format("Thread: %s %s%n", thread.getName(), thread.getState()));
            for (StackTraceElement frame : frames) {
                text.append(String.format("    %s%n", frame));
            }
        });
        return text.toString();
    }
}
