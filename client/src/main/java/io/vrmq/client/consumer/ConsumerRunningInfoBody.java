package io.vrmq.client.consumer;

import io.vertx.core.buffer.Buffer;
import io.vrmq.client.ConsumerOptions;
import io.vrmq.client.MessageQueue;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.json.RemotingJson;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GET_CONSUMER_RUNNING_INFO (307) answer of a push consumer, RocketMQ's ConsumerRunningInfo as fastjson writes
 * it and mqadmin consumerStatus / consumerProgress -s read it:
 * <pre>
 *  field            value
 *  properties       string → string: the options, PROP_CONSUME_TYPE, PROP_CONSUMEORDERLY, PROP_NAMESERVER_ADDR,
 *                   PROP_THREADPOOL_CORE_SIZE, PROP_CONSUMER_START_TIMESTAMP (every value a string: Properties)
 *  subscriptionSet  the subscriptions, retry topic included, ordered by topic
 *  mqTable          queue (object key) → ProcessQueueInfo
 *  mqPopTable       empty: no pop consumption here
 *  statusTable      empty: we keep no per-topic consume rates
 * </pre>
 * Stateless; call on the consumer's context (it reads the process queues).
 */
public final class ConsumerRunningInfoBody {
    static final String PROP_NAMESERVER_ADDR = "PROP_NAMESERVER_ADDR";
    static final String PROP_THREADPOOL_CORE_SIZE = "PROP_THREADPOOL_CORE_SIZE";
    static final String PROP_CONSUME_ORDERLY = "PROP_CONSUMEORDERLY";
    static final String PROP_CONSUME_TYPE = "PROP_CONSUME_TYPE";
    static final String PROP_CONSUMER_START_TIMESTAMP = "PROP_CONSUMER_START_TIMESTAMP";
    private static final long BYTES_PER_MIB = 1024 * 1024;
    /** The official consumer's consumeTimestamp text (UtilAll.timeMillisToHumanString3), in local time. */
    private static final DateTimeFormatter CONSUME_TIMESTAMP_FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
        .withZone(ZoneId.systemDefault());

    private ConsumerRunningInfoBody() {
    }

    /** What the consumer looks like now; {@code jstack} may be null. */
    public static Buffer encode(RemotingJson json, Snapshot consumer, String jstack) {
        Map<String, Object> plain = new TreeMap<>();
        plain.put("properties", properties(consumer));
        plain.put("subscriptionSet", consumer.subscriptions().stream()
            .sorted(Comparator.comparing(SubscriptionData::topic)).toList());
        plain.put("statusTable", Map.of());
        if (jstack != null) {
            plain.put("jstack", jstack);
        }
        Map<MessageQueue, ProcessQueueInfo> queues = new TreeMap<>();
        consumer.processQueues().forEach((queue, processQueue) ->
            queues.put(queue, info(processQueue, consumer.offsets().readFromMemory(queue))));
        return QueueKeyedJson.body(json, plain, Map.of("mqTable", queues, "mqPopTable", Map.of()));
    }

    private static Map<String, String> properties(Snapshot consumer) {
        ConsumerOptions options = consumer.options();
        Map<String, String> properties = new TreeMap<>();
        properties.put("consumerGroup", options.getConsumerGroup());
        properties.put("messageModel", options.getMessageModel().name());
        properties.put("consumeFromWhere", options.getConsumeFromWhere().name());
        properties.put("consumeTimestamp", CONSUME_TIMESTAMP_FORMAT.format(
            Instant.ofEpochMilli(options.getConsumeTimestampMs())));
        properties.put("pullBatchSize", Integer.toString(options.getPullBatchSize()));
        properties.put("pullThresholdForQueue", Integer.toString(options.getPullThresholdForQueue()));
        properties.put("consumeMessageBatchMaxSize", Integer.toString(options.getConsumeMessageBatchMaxSize()));
        properties.put("maxReconsumeTimes", Integer.toString(options.getMaxReconsumeTimes()));
        properties.put("namesrvAddr", options.getNamesrvAddr());
        properties.put("instanceName", options.getInstanceName());
        properties.put(PROP_CONSUME_TYPE, "CONSUME_PASSIVELY");
        properties.put(PROP_CONSUME_ORDERLY, Boolean.toString(consumer.isOrderly()));
        properties.put(PROP_THREADPOOL_CORE_SIZE, Integer.toString(options.getConsumeConcurrency()));
        properties.put(PROP_CONSUMER_START_TIMESTAMP, Long.toString(consumer.startTimestampMs()));
        StringBuilder nameServers = new StringBuilder();
        options.namesrvAddrList().forEach(address -> nameServers.append(address).append(';'));
        properties.put(PROP_NAMESERVER_ADDR, nameServers.toString());
        return properties;
    }

    private static ProcessQueueInfo info(ProcessQueue queue, long commitOffset) {
        return new ProcessQueueInfo(commitOffset, queue.minHeldOffset(), queue.maxHeldOffset(), queue.heldCount(),
            (int) (queue.heldBytes() / BYTES_PER_MIB), 0, 0, 0, queue.isLocked(), 0, queue.lastLockTimestampMs(),
            queue.isDropped(), queue.lastPullTimestampMs(), queue.lastConsumeTimestampMs());
    }

    /** The parts of a running push consumer the body is made of. */
    public record Snapshot(ConsumerOptions options, boolean isOrderly, long startTimestampMs,
                           Collection<SubscriptionData> subscriptions, Map<MessageQueue, ProcessQueue> processQueues,
                           OffsetStore offsets) {
    }

    /** RocketMQ's ProcessQueueInfo; "droped" is the official spelling. */
    record ProcessQueueInfo(long commitOffset, long cachedMsgMinOffset, long cachedMsgMaxOffset, int cachedMsgCount,
                            int cachedMsgSizeInMiB, long transactionMsgMinOffset, long transactionMsgMaxOffset,
                            int transactionMsgCount, boolean locked, long tryUnlockTimes, long lastLockTimestamp,
                            boolean droped, long lastPullTimestamp, long lastConsumeTimestamp) {
    }
}
