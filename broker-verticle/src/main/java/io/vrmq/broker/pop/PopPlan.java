package io.vrmq.broker.pop;

import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.store.MessageStore;

import java.util.ArrayList;
import java.util.List;

/**
 * Which queues one pop reads, in RocketMQ's order: with popFromRetryProbability percent the retry topic's queues
 * first, else after the topic's (read only if the batch is not full yet); a pop of every queue starts at a random
 * one. Each queue is taken under its pop lock: a queue another pop holds is skipped (its backlog still counts in
 * restNum), and so is one over its in-flight threshold or, for an orderly pop, one blocked by unacked messages.
 * <p>
 * Built and released on the broker's context.
 */
final class PopPlan {
    private final PopState state;
    private final List<PopReader.Planned> queues = new ArrayList<>();
    private long skippedBacklog;

    private PopPlan(PopState state) {
        this.state = state;
    }

    /** Plans a pop (locking its queues); call {@link #release()} once it is done, whatever the outcome. */
    static PopPlan forPop(BrokerContext broker, PopConfig config, PopState state, InflightTable table,
                          PopMessageRequest request, TopicConfig topic, int randomQ, long nowMs) {
        PopPlan plan = new PopPlan(state);
        if (request.isOrder()) {
            plan.addTopic(broker, config, table, request, topic, false, randomQ, nowMs);
            return plan;
        }
        boolean isRetryFirst = randomQ < config.popFromRetryProbability();
        TopicConfig retryTopic = retryTopic(broker, retryTopicName(config, request, randomQ));
        if (isRetryFirst && retryTopic != null) {
            plan.addTopic(broker, config, table, request, retryTopic, true, randomQ, nowMs);
        }
        plan.addTopic(broker, config, table, request, topic, false, randomQ, nowMs);
        if (!isRetryFirst && retryTopic != null) {
            plan.addTopic(broker, config, table, request, retryTopic, true, randomQ, nowMs);
        }
        return plan;
    }

    /**
     * The retry topic's config; one that has messages but no config (written by a former master moments before a
     * failover, before the slave copied its topics) is configured again, so its messages are not stranded.
     */
    private static TopicConfig retryTopic(BrokerContext broker, String name) {
        TopicConfig config = broker.topics().get(name);
        if (config == null && broker.store().store().getMaxOffsetInQueue(name, 0) > 0) {
            config = broker.topics().putIfAbsent(TopicConfig.of(name, 1, Permission.READ_WRITE));
        }
        return config;
    }

    /** The retry topic this pop reads: V1 or V2 as configured, and with both kept, V1 for half of the pops. */
    static String retryTopicName(PopConfig config, PopMessageRequest request, int randomQ) {
        boolean isV1 = !config.enableRetryTopicV2()
            || config.retrieveMessageFromPopRetryTopicV1() && randomQ % 2 == 0;
        return PopNames.retryTopic(request.topic(), request.consumerGroup(), !isV1);
    }

    List<PopReader.Planned> queues() {
        return queues;
    }

    /** Messages waiting in queues this pop skipped because another pop held them. */
    long skippedBacklog() {
        return skippedBacklog;
    }

    void release() {
        for (PopReader.Planned planned : queues) {
            state.unlock(planned.queue());
        }
    }

    private void addTopic(BrokerContext broker, PopConfig config, InflightTable table, PopMessageRequest request,
                          TopicConfig topic, boolean isRetry, int randomQ, long nowMs) {
        int queueCount = topic.readQueueNums();
        if (!isRetry && !request.isAllQueues()) {
            addQueue(broker, config, table, request, new QueueKey(request.consumerGroup(), topic.topicName(),
                request.queueId()), false, nowMs);
            return;
        }
        for (int i = 0; i < queueCount; i++) {
            int queueId = (i + randomQ) % queueCount;
            addQueue(broker, config, table, request, new QueueKey(request.consumerGroup(), topic.topicName(), queueId),
                isRetry, nowMs);
        }
    }

    private void addQueue(BrokerContext broker, PopConfig config, InflightTable table, PopMessageRequest request,
                          QueueKey queue, boolean isRetry, long nowMs) {
        long committed = broker.offsets().query(queue.group(), queue.topic(), queue.queueId());
        if (request.isOrder()) {
            OrderCheckpoint last = table.order(queue);
            if (last != null && last.blocks(request.attemptId(), nowMs)) {
                return;
            }
        }
        if (!state.tryLock(queue)) {
            skippedBacklog += backlog(broker.store().store(), queue, committed);
            return;
        }
        if (config.enablePopMessageThreshold() && !request.isOrder()
            && broker.popInflight().count(queue.group(), queue.topic(), queue.queueId())
            > config.popInflightMessageThreshold()) {
            state.unlock(queue);
            skippedBacklog += backlog(broker.store().store(), queue, committed);
            return;
        }
        queues.add(new PopReader.Planned(queue, isRetry, committed, request.initMode()));
    }

    /** In-memory queue bounds (volatile reads, no file access): safe on the event loop. */
    private static long backlog(MessageStore store, QueueKey queue, long committed) {
        return Math.max(0, store.getMaxOffsetInQueue(queue.topic(), queue.queueId()) - Math.max(0, committed));
    }
}
