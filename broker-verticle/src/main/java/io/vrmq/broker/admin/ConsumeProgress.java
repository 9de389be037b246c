package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.store.MessageStore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A consumer group's progress per queue (broker offset, consumer offset, lag), shared by GET_CONSUME_STATS (208,
 * {@link ConsumeStatsProcessor}), the HTTP admin API and the lag gauge. {@link #of} reads the store on the reader
 * pool; {@link #collect} is the same read for a caller already on a reader thread. Thread-safe.
 */
public final class ConsumeProgress {
    private static final String TOPIC_LIST_SEPARATOR = ";";

    private final BrokerContext broker;

    public ConsumeProgress(BrokerContext broker) {
        this.broker = broker;
    }

    /**
     * RocketMQ's choice of topics: an explicit topic list ({@code ;}-separated) as given; else the one topic, or every
     * topic the group committed offsets on, keeping only topics the group subscribes to while it has live
     * subscriptions. {@code topic} and {@code topicList} may be null.
     */
    public Set<String> topicsToReport(String group, String topic, String topicList) {
        Set<String> topics = new TreeSet<>();
        if (topicList != null && !topicList.isBlank()) {
            Arrays.stream(topicList.split(TOPIC_LIST_SEPARATOR)).map(String::trim).filter(name -> !name.isEmpty())
                .forEach(topics::add);
            return topics;
        }
        if (topic == null || topic.isBlank()) {
            topics.addAll(broker.offsets().topicsOf(group));
        } else {
            topics.add(topic);
        }
        ConsumerGroupInfo online = broker.clients().consumerGroup(group);
        if (online != null && !online.subscriptions().isEmpty()) {
            topics.removeIf(name -> online.subscription(name) == null);
        }
        return topics;
    }

    public Future<List<QueueProgress>> of(String group, Set<String> topics) {
        return broker.store().read(() -> collect(group, topics));
    }

    /** One line per readable queue of each known topic, by topic then queue id. Runs on a reader thread. */
    public List<QueueProgress> collect(String group, Set<String> topics) {
        MessageStore store = broker.store().store();
        List<QueueProgress> progress = new ArrayList<>();
        for (String topic : new TreeSet<>(topics)) {
            TopicConfig config = broker.topics().get(topic);
            if (config == null) {
                continue;
            }
            for (int queueId = 0; queueId < config.readQueueNums(); queueId++) {
                long brokerOffset = Math.max(0, store.getMaxOffsetInQueue(topic, queueId));
                long consumerOffset = Math.max(0, broker.offsets().query(group, topic, queueId));
                long lastTimestamp = consumerOffset > 0
                    ? Math.max(0, store.getMessageStoreTimestamp(topic, queueId, consumerOffset - 1)) : 0;
                progress.add(new QueueProgress(topic, queueId, brokerOffset, consumerOffset, lastTimestamp,
                    broker.popInflight().count(group, topic, queueId),
                    broker.popInflight().orderlyCount(group, topic, queueId)));
            }
        }
        return progress;
    }

    /**
     * One queue's line. For a group consuming by POP the consumer offset is its pop offset (the next message a pop
     * hands out), or for an orderly pop the first unacked message, and the popped messages not yet acked are counted
     * apart.
     *
     * @param lastTimestamp     store time of the last consumed message, 0 when none was consumed
     * @param inflight          POP: messages handed out and neither acked nor revived yet (all of them)
     * @param orderlyInflight   the part of {@code inflight} held by orderly pops (at and above the consumer offset)
     */
    public record QueueProgress(String topic, int queueId, long brokerOffset, long consumerOffset,
                                long lastTimestamp, long inflight, long orderlyInflight) {
        /** Messages stored but not yet handed out (or, orderly, not yet acked); never negative. */
        public long lag() {
            return Math.max(0, brokerOffset - consumerOffset);
        }

        /**
         * RocketMQ's ConsumeStats pair, chosen so that {@code mqadmin consumerProgress} shows every message not yet
         * acked as Diff and the in-flight count as Inflight (it prints pullOffset - consumerOffset): for a POP queue
         * the consumer offset is lowered by its non-orderly in-flight messages and the pull offset raised by the
         * orderly ones. Without POP both are the consumer offset. [consumerOffset, pullOffset]
         */
        public long[] consumeStatsOffsets() {
            long lowered = Math.max(0, consumerOffset - (inflight - orderlyInflight));
            return new long[] {lowered, lowered + inflight};
        }
    }
}
