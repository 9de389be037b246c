package io.vrmq.broker.processor;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.broker.timer.TimerRouting;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.broker.transaction.HalfMessages;
import io.vrmq.broker.transaction.TransactionNames;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageConst;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where a message is really stored, RocketMQ's rules: a retry message past its group's max reconsume times goes to
 * the group's dead-letter topic; a message with a delay level goes to SCHEDULE_TOPIC_XXXX (queue = level - 1) with
 * its real topic and queue kept in REAL_TOPIC / REAL_QID until the schedule service delivers it; a message with a
 * deliver time (TIMER_*) goes to the timer topic the same way (see {@link TimerRouting}). A delay level wins over a
 * deliver time. Neither applies to a transaction's prepared or rolled-back message. A producer's half message
 * (TRAN_MSG=true) goes to the transaction half topic the same way, until its commit (see {@link HalfMessages}).
 * Rewrites {@code properties} in place. Thread-safe.
 */
public final class DeliveryRouting {
    /** sysFlag bits 2-3: transaction type. Only plain (0) and committed messages may be delayed or timed. */
    private static final int TRANSACTION_TYPE_MASK = 0x3 << 2;
    private static final int TRANSACTION_COMMIT_TYPE = 0x2 << 2;

    private final BrokerContext broker;
    private final TopicResolver topics;
    private final TimerRouting timer;

    public DeliveryRouting(BrokerContext broker, TopicResolver topics) {
        this(broker, topics, TimerRouting.systemClock(broker.features().timerFlow()));
    }

    public DeliveryRouting(BrokerContext broker, TopicResolver topics, TimerRouting timer) {
        this.broker = broker;
        this.topics = topics;
        this.timer = timer;
    }

    /**
     * Where to store a message a producer sent to {@code topic}/{@code queueId}: a half message to the half topic,
     * anything else as {@link #route} says. Only for sends: a committed message keeps TRAN_MSG but is no half.
     */
    public Destination routeSend(String topic, int queueId, Map<String, String> properties, int reconsumeTimes,
                                 int maxReconsumeTimes, int sysFlag) {
        if (HalfMessages.isHalfMessage(properties, reconsumeTimes)) {
            HalfMessages.keepRealDestination(topic, queueId, properties);
            return new Destination(TransactionNames.HALF_TOPIC, TransactionNames.HALF_QUEUE_ID, true);
        }
        return route(topic, queueId, properties, reconsumeTimes, maxReconsumeTimes, sysFlag);
    }

    /** Where to store a message sent to {@code topic}/{@code queueId}. */
    public Destination route(String topic, int queueId, Map<String, String> properties, int reconsumeTimes,
                             int maxReconsumeTimes, int sysFlag) {
        if (TopicNames.isRetryTopic(topic)) {
            String group = topic.substring(TopicNames.RETRY_GROUP_TOPIC_PREFIX.length());
            if (reconsumeTimes > maxReconsumeTimesOf(group, maxReconsumeTimes)) {
                return toDeadLetter(group, properties);
            }
        }
        int transactionType = sysFlag & TRANSACTION_TYPE_MASK;
        if (transactionType != 0 && transactionType != TRANSACTION_COMMIT_TYPE) {
            return new Destination(topic, queueId);
        }
        int delayLevel = parseInt(properties.get(MessageConst.DELAY_TIME_LEVEL));
        if (delayLevel > 0) {
            TimerRouting.dropTimerProperties(properties);
            return toSchedule(topic, queueId, delayLevel, properties);
        }
        if (TimerRouting.isTimerRequest(topic, properties) && timer.holdUntilDue(topic, queueId, properties)) {
            broker.topics().putIfAbsent(TopicConfig.of(TimerRouting.TIMER_TOPIC, 1, Permission.READ_WRITE));
            return new Destination(TimerRouting.TIMER_TOPIC, TimerRouting.TIMER_QUEUE_ID);
        }
        return new Destination(topic, queueId);
    }

    /** Retry attempts allowed for a group: the request's value when it sent one, else the group's config. */
    public int maxReconsumeTimesOf(String group, int requested) {
        if (requested >= 0) {
            return requested;
        }
        SubscriptionGroupConfig config = broker.groups().findOrCreate(group);
        return config == null ? broker.config().maxReconsumeTimes() : config.retryMaxTimes();
    }

    /** A message moved to the group's dead-letter topic: delivered to no consumer, kept for admins. */
    public Destination toDeadLetter(String group, Map<String, String> properties) {
        TopicConfig dlq = topics.dlqTopic(group);
        properties.remove(MessageConst.DELAY_TIME_LEVEL);
        return new Destination(dlq.topicName(), ThreadLocalRandom.current().nextInt(dlq.writeQueueNums()));
    }

    private Destination toSchedule(String topic, int queueId, int delayLevel, Map<String, String> properties) {
        int level = Math.min(delayLevel, broker.delayLevels().maxLevel());
        properties.put(MessageConst.DELAY_TIME_LEVEL, Integer.toString(level));
        properties.put(MessageConst.REAL_TOPIC, topic);
        properties.put(MessageConst.REAL_QUEUE_ID, Integer.toString(queueId));
        return new Destination(TopicNames.SCHEDULE_TOPIC, level - 1);
    }

    private static int parseInt(String value) {
        if (value == null || value.isEmpty()) {
            return 0;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Topic and queue a message is stored in; {@code isHalfMessage} when it is a transaction's half message, stored
     * with {@link HalfMessages#storedSysFlag}.
     */
    public record Destination(String topic, int queueId, boolean isHalfMessage) {
        public Destination(String topic, int queueId) {
            this(topic, queueId, false);
        }
    }
}
