package io.vrmq.broker.pop;

import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.TagFilter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * PEEK_MESSAGE (200052), RocketMQ's PeekMessageProcessor: the messages a pop would hand out next, from the group's
 * pop offsets (its first message where it has none), without taking them: no checkpoint, no lock, no offset moves.
 * The retry topic is read first for one peek in five, else after the topic if the batch is not full. SUCCESS with
 * the stored records, or PULL_NOT_FOUND. Runs on the broker's context; reads on a store reader thread.
 */
public final class PeekMessageProcessor {
    private static final int RETRY_FIRST_ONE_IN = 5;

    private final BrokerContext broker;
    private final PopConfig config;
    private final PopChecks checks;
    private final PopReader reader;
    private final Random random = new Random();

    PeekMessageProcessor(BrokerContext broker, PopConfig config) {
        this.broker = broker;
        this.config = config;
        this.checks = new PopChecks(broker);
        this.reader = new PopReader(broker.store().store(), false);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.PEEK_MESSAGE, this::peek);
    }

    private Future<RemotingCommand> peek(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String topicName = header.requiredString("topic");
        int requestedQueue = header.requiredInt("queueId");
        int queueId = requestedQueue < 0 ? PopMessageRequest.ALL_QUEUES : requestedQueue;
        int maxMsgNums = header.requiredInt("maxMsgNums");
        String group = header.requiredString("consumerGroup");
        checks.requireBrokerReadable("peeking");
        TopicConfig topic = checks.readableTopic(topicName, queueId, connection);
        checks.consumingGroup(group);
        int randomQ = random.nextInt(100);
        List<PopReader.Planned> plan = plan(topic, queueId, group, randomQ);
        return broker.store().read(() -> reader.read(plan, maxMsgNums, TagFilter.ALL, null))
            .map(reads -> answer(request, reads));
    }

    private List<PopReader.Planned> plan(TopicConfig topic, int queueId, String group, int randomQ) {
        List<PopReader.Planned> plan = new ArrayList<>();
        boolean isRetryFirst = randomQ % RETRY_FIRST_ONE_IN == 0;
        TopicConfig retry = broker.topics().get(PopNames.retryTopic(topic.topicName(), group,
            config.enableRetryTopicV2()));
        if (isRetryFirst && retry != null) {
            addQueues(plan, retry, PopMessageRequest.ALL_QUEUES, group, randomQ, true);
        }
        addQueues(plan, topic, queueId, group, randomQ, false);
        if (!isRetryFirst && retry != null) {
            addQueues(plan, retry, PopMessageRequest.ALL_QUEUES, group, randomQ, true);
        }
        return plan;
    }

    private void addQueues(List<PopReader.Planned> plan, TopicConfig topic, int queueId, String group, int randomQ,
                           boolean isRetry) {
        int count = topic.readQueueNums();
        for (int i = 0; i < (queueId < 0 ? count : 1); i++) {
            int id = queueId < 0 ? (i + randomQ) % count : queueId;
            QueueKey queue = new QueueKey(group, topic.topicName(), id);
            plan.add(new PopReader.Planned(queue, isRetry, broker.offsets().query(group, topic.topicName(), id),
                PopMessageRequest.INIT_MODE_MIN));
        }
    }

    private static RemotingCommand answer(RemotingCommand request, List<QueueRead> reads) {
        List<ByteBuffer> records = new ArrayList<>();
        long rest = 0;
        for (QueueRead read : reads) {
            records.addAll(read.records());
            rest += Math.max(0, read.maxOffset() - read.startOffset());
        }
        Map<String, String> header = Map.of("restNum", Long.toString(rest), "popTime", "0", "invisibleTime", "0",
            "reviveQid", "0");
        if (records.isEmpty()) {
            return RemotingCommand.response(request, ResponseCode.PULL_NOT_FOUND, "NO_MESSAGE_IN_QUEUE", header,
                null);
        }
        return RemotingCommand.response(request, ResponseCode.SUCCESS, "FOUND", header,
            BufferInternal.buffer(Unpooled.wrappedBuffer(records.toArray(new ByteBuffer[0]))));
    }
}
