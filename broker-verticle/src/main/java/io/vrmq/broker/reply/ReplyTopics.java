package io.vrmq.broker.reply;

import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;

/**
 * The topic replies go to, {@code <cluster>_REPLY_TOPIC}: created at start with one read-write queue, as RocketMQ's
 * TopicConfigManager does, and registered with the NameServers like any topic, so a replying client finds its route.
 */
public final class ReplyTopics {
    public static final String REPLY_TOPIC_POSTFIX = "REPLY_TOPIC";

    private ReplyTopics() {
    }

    public static String replyTopic(String clusterName) {
        return clusterName + "_" + REPLY_TOPIC_POSTFIX;
    }

    public static void ensure(TopicConfigTable topics, String clusterName) {
        topics.putIfAbsent(TopicConfig.of(replyTopic(clusterName), 1, Permission.READ_WRITE));
    }
}
