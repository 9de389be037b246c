package io.vrmq.broker.admin;

import io.vrmq.broker.BrokerConfig;
import io.vrmq.broker.reply.ReplyTopics;
import io.vrmq.broker.topic.TopicNames;

import java.util.Set;
import java.util.TreeSet;

/**
 * The topics RocketMQ calls system topics (its TopicValidator set, plus the cluster-name, broker-name and
 * {@code <cluster>_REPLY_TOPIC} topics a broker adds at start, plus anything named {@code rmq_sys_*}). Admins may not
 * create or delete them through 17 and 215 (RocketMQ's validateSystemTopicWhenUpdateTopic, on by default), and 305
 * lists them. Immutable.
 */
public final class SystemTopicNames {
    private static final String SYSTEM_TOPIC_PREFIX = "rmq_sys_";
    private static final Set<String> FIXED = Set.of(TopicNames.AUTO_CREATE_TOPIC_KEY, TopicNames.SCHEDULE_TOPIC,
        "BenchmarkTest", "RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRACE_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC",
        TopicNames.TRANS_CHECK_MAX_TIME_TOPIC, TopicNames.SELF_TEST_TOPIC, "OFFSET_MOVED_EVENT", "CHECKPOINT_TOPIC",
        "RMQ_SYS_ROCKSDB_TRANS_HALF_TOPIC", "RMQ_SYS_ROCKSDB_TRANS_OP_HALF_TOPIC");

    private final Set<String> names;

    public SystemTopicNames(BrokerConfig config) {
        Set<String> all = new TreeSet<>(FIXED);
        all.add(config.brokerClusterName());
        all.add(config.brokerName());
        all.add(ReplyTopics.replyTopic(config.brokerClusterName()));
        this.names = Set.copyOf(all);
    }

    public boolean isSystemTopic(String topic) {
        return names.contains(topic) || topic.startsWith(SYSTEM_TOPIC_PREFIX);
    }

    /** The fixed names, sorted. */
    public Set<String> names() {
        return new TreeSet<>(names);
    }
}
