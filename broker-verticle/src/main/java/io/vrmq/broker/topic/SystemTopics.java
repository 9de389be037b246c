package io.vrmq.broker.topic;

import io.vrmq.broker.BrokerConfig;
import io.vrmq.broker.transaction.TransactionNames;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;

/** The topics every RocketMQ broker creates at start, as RocketMQ's TopicConfigManager does. */
public final class SystemTopics {
    private SystemTopics() {
    }

    public static void ensure(TopicConfigTable topics, BrokerConfig config, int delayLevelCount) {
        if (config.autoCreateTopicEnable()) {
            topics.putIfAbsent(TopicConfig.of(TopicNames.AUTO_CREATE_TOPIC_KEY, config.defaultTopicQueueNums(),
                Permission.INHERIT | Permission.READ_WRITE));
        }
        topics.putIfAbsent(TopicConfig.of(TopicNames.SCHEDULE_TOPIC, delayLevelCount, Permission.READ_WRITE));
        topics.putIfAbsent(TopicConfig.of(TopicNames.SELF_TEST_TOPIC, 1, Permission.READ_WRITE));
        topics.putIfAbsent(TopicConfig.of(TransactionNames.HALF_TOPIC, 1, Permission.READ_WRITE));
        topics.putIfAbsent(TopicConfig.of(TransactionNames.OP_TOPIC, 1, Permission.READ_WRITE));
        topics.putIfAbsent(TopicConfig.of(config.brokerClusterName(), 16,
            Permission.INHERIT | config.brokerPermission()));
        topics.putIfAbsent(TopicConfig.of(config.brokerName(), 1, Permission.INHERIT | config.brokerPermission()));
    }
}
