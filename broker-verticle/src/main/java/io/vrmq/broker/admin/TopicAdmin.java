package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Topic administration that the remoting processor ({@link TopicAdminProcessor}: 17, 215, 202) and the HTTP admin
 * API share: name checks with RocketMQ's remarks, table changes, store clean-up and per-queue offsets. Refusals are
 * failed futures of {@link RemotingCommandException} with RocketMQ's response code (INVALID_PARAMETER,
 * TOPIC_NOT_EXIST); each caller maps them to its own reply. Table changes run on the caller's thread (the tables are
 * thread-safe and persist asynchronously); store work runs on the reader pool.
 */
public final class TopicAdmin {
    private static final Logger log = LoggerFactory.getLogger(TopicAdmin.class);

    private final BrokerContext broker;
    private final SystemTopicNames systemTopics;

    public TopicAdmin(BrokerContext broker, SystemTopicNames systemTopics) {
        this.broker = broker;
        this.systemTopics = systemTopics;
    }

    public SystemTopicNames systemTopics() {
        return systemTopics;
    }

    /**
     * Creates or replaces the topic's config. Its attributes are the current ones changed by
     * {@code attributeModifications} (see {@link TopicAttributes}); {@code requested.attributes()} is ignored. The
     * table's change listener registers the new config with every NameServer at once.
     */
    public Future<TopicConfig> createOrUpdate(TopicConfig requested, String attributeModifications, String requester) {
        String topic = requested.topicName();
        String invalid = TopicNames.invalidReason(topic);
        if (invalid != null) {
            return refused(ResponseCode.INVALID_PARAMETER, invalid);
        }
        if (systemTopics.isSystemTopic(topic)) {
            return refused(ResponseCode.INVALID_PARAMETER, "The topic[" + topic + "] is conflict with system topic.");
        }
        TopicConfig current = broker.topics().get(topic);
        TopicConfig config = new TopicConfig(topic, requested.readQueueNums(), requested.writeQueueNums(),
            requested.perm(), requested.topicFilterType(), requested.topicSysFlag(), requested.order(),
            TopicAttributes.apply(current == null ? Map.of() : current.attributes(), attributeModifications));
        log.info("update or create topic {} from {}: {}", topic, requester, config);
        return broker.topics().put(config).map(persisted -> config);
    }

    /** Removes the config, the group offsets and the ConsumeQueues; the CommitLog keeps the records until retention. */
    public Future<Void> delete(String topic, String requester) {
        if (topic.isBlank()) {
            return refused(ResponseCode.INVALID_PARAMETER, "The specified topic is blank.");
        }
        if (systemTopics.isSystemTopic(topic)) {
            return refused(ResponseCode.INVALID_PARAMETER, "The topic[" + topic + "] is conflict with system topic.");
        }
        log.info("delete topic {} requested by {}", topic, requester);
        broker.offsets().removeTopic(topic);
        return broker.topics().delete(topic)
            .compose(deleted -> broker.store().read(() -> {
                broker.store().store().deleteTopic(topic);
                return (Void) null;
            }));
    }

    /** Min, max and last store time of every queue (max of read and write queue counts); TOPIC_NOT_EXIST if unknown. */
    public Future<List<QueueStatus>> status(String topic) {
        TopicConfig config = broker.topics().get(topic);
        if (config == null) {
            return refused(ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist");
        }
        int queueCount = Math.max(config.readQueueNums(), config.writeQueueNums());
        return broker.store().read(() -> queueStatus(broker.store().store(), topic, queueCount));
    }

    /** Runs on a reader thread. */
    private static List<QueueStatus> queueStatus(MessageStore store, String topic, int queueCount) {
        List<QueueStatus> queues = new ArrayList<>(queueCount);
        for (int queueId = 0; queueId < queueCount; queueId++) {
            long min = Math.max(0, store.getMinOffsetInQueue(topic, queueId));
            long max = Math.max(0, store.getMaxOffsetInQueue(topic, queueId));
            long lastUpdate = max > 0 ? Math.max(0, store.getMessageStoreTimestamp(topic, queueId, max - 1)) : 0;
            queues.add(new QueueStatus(queueId, min, max, lastUpdate));
        }
        return queues;
    }

    private static <T> Future<T> refused(int responseCode, String remark) {
        return Future.failedFuture(new RemotingCommandException(responseCode, remark));
    }

    /** One queue's offsets: the oldest kept, the next to be written, and the store time of the newest message. */
    public record QueueStatus(int queueId, long minOffset, long maxOffset, long lastUpdateTimestamp) {
    }
}
