package io.vrmq.client;

import java.nio.file.Path;

/**
 * A consumer's settings, for push and pull consumers: RocketMQ's DefaultMQPushConsumer names and defaults. Not
 * thread-safe: fill in, then hand over.
 */
public final class ConsumerOptions extends ClientOptions<ConsumerOptions> {
    public static final int DEFAULT_PULL_BATCH_SIZE = 32;
    /** RocketMQ's pullThresholdForQueue: a queue holding this many unconsumed messages stops pulling. */
    public static final int DEFAULT_PULL_THRESHOLD_FOR_QUEUE = 1_000;
    /** RocketMQ's pullThresholdSizeForQueue (MiB): the same by body bytes. */
    public static final int DEFAULT_PULL_THRESHOLD_SIZE_FOR_QUEUE_MIB = 100;
    /** RocketMQ's brokerSuspendMaxTimeMillis: how long the broker holds a pull that found nothing. */
    public static final long DEFAULT_SUSPEND_TIMEOUT_MS = 15_000;
    /** RocketMQ's consumerTimeoutMillisWhenSuspend: our wait for a held pull's answer. */
    public static final long DEFAULT_PULL_TIMEOUT_MS = 30_000;
    public static final long DEFAULT_REBALANCE_INTERVAL_MS = 20_000;
    public static final long DEFAULT_PERSIST_CONSUMER_OFFSET_INTERVAL_MS = 5_000;
    /** RocketMQ's pullTimeDelayMillsWhenException. */
    public static final long DEFAULT_PULL_ERROR_RETRY_MS = 3_000;
    /** RocketMQ's PULL_TIME_DELAY_MILLS_WHEN_FLOW_CONTROL. */
    public static final long DEFAULT_FLOW_CONTROL_RETRY_MS = 50;
    public static final long DEFAULT_SUSPEND_CURRENT_QUEUE_MS = 1_000;
    /** How long a batch whose send-back failed waits before it is consumed again here. */
    public static final long DEFAULT_LOCAL_RETRY_MS = 5_000;
    /** RocketMQ's consumeThreadMax: listener calls of a concurrent consumer in flight at once. */
    public static final int DEFAULT_CONSUME_CONCURRENCY = 20;
    /** RocketMQ's lock renewal period for orderly consumption (the broker's lock lives 60 s). */
    public static final long DEFAULT_LOCK_RENEW_INTERVAL_MS = 20_000;

    private String consumerGroup;
    private MessageModel messageModel = MessageModel.CLUSTERING;
    private ConsumeFromWhere consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET;
    private long consumeTimestampMs = System.currentTimeMillis() - 30 * 60 * 1_000;
    private int pullBatchSize = DEFAULT_PULL_BATCH_SIZE;
    private int consumeMessageBatchMaxSize = 1;
    private int consumeConcurrency = DEFAULT_CONSUME_CONCURRENCY;
    private int pullThresholdForQueue = DEFAULT_PULL_THRESHOLD_FOR_QUEUE;
    private int pullThresholdSizeForQueueMiB = DEFAULT_PULL_THRESHOLD_SIZE_FOR_QUEUE_MIB;
    private int maxReconsumeTimes = -1;
    private long suspendTimeoutMs = DEFAULT_SUSPEND_TIMEOUT_MS;
    private long pullTimeoutMs = DEFAULT_PULL_TIMEOUT_MS;
    private long rebalanceIntervalMs = DEFAULT_REBALANCE_INTERVAL_MS;
    private long persistConsumerOffsetIntervalMs = DEFAULT_PERSIST_CONSUMER_OFFSET_INTERVAL_MS;
    private long pullErrorRetryMs = DEFAULT_PULL_ERROR_RETRY_MS;
    private long flowControlRetryMs = DEFAULT_FLOW_CONTROL_RETRY_MS;
    private long suspendCurrentQueueMs = DEFAULT_SUSPEND_CURRENT_QUEUE_MS;
    private long localRetryMs = DEFAULT_LOCAL_RETRY_MS;
    private long lockRenewIntervalMs = DEFAULT_LOCK_RENEW_INTERVAL_MS;
    private AllocateStrategy allocateStrategy = new AllocateAveragely();
    private Path offsetStoreDir = Path.of(System.getProperty("user.home"), ".vrmq_offsets");

    @Override
    protected ConsumerOptions self() {
        return this;
    }

    public ConsumerOptions setConsumerGroup(String group) {
        this.consumerGroup = group;
        return this;
    }

    public ConsumerOptions setMessageModel(MessageModel model) {
        this.messageModel = model;
        return this;
    }

    public ConsumerOptions setConsumeFromWhere(ConsumeFromWhere where) {
        this.consumeFromWhere = where;
        return this;
    }

    /** Used with CONSUME_FROM_TIMESTAMP; RocketMQ's default is half an hour ago. */
    public ConsumerOptions setConsumeTimestampMs(long timestampMs) {
        this.consumeTimestampMs = timestampMs;
        return this;
    }

    public ConsumerOptions setPullBatchSize(int size) {
        this.pullBatchSize = size;
        return this;
    }

    public ConsumerOptions setConsumeMessageBatchMaxSize(int size) {
        this.consumeMessageBatchMaxSize = size;
        return this;
    }

    /** How many listener calls (batches) a concurrent consumer keeps in flight; the rest wait their turn. */
    public ConsumerOptions setConsumeConcurrency(int batches) {
        this.consumeConcurrency = batches;
        return this;
    }

    public ConsumerOptions setPullThresholdForQueue(int messages) {
        this.pullThresholdForQueue = messages;
        return this;
    }

    public ConsumerOptions setPullThresholdSizeForQueueMiB(int mebibytes) {
        this.pullThresholdSizeForQueueMiB = mebibytes;
        return this;
    }

    /** -1: the broker's group default (16); then the message goes to %DLQ%group. */
    public ConsumerOptions setMaxReconsumeTimes(int times) {
        this.maxReconsumeTimes = times;
        return this;
    }

    public ConsumerOptions setSuspendTimeoutMs(long timeoutMs) {
        this.suspendTimeoutMs = timeoutMs;
        return this;
    }

    public ConsumerOptions setPullTimeoutMs(long timeoutMs) {
        this.pullTimeoutMs = timeoutMs;
        return this;
    }

    public ConsumerOptions setRebalanceIntervalMs(long intervalMs) {
        this.rebalanceIntervalMs = intervalMs;
        return this;
    }

    public ConsumerOptions setPersistConsumerOffsetIntervalMs(long intervalMs) {
        this.persistConsumerOffsetIntervalMs = intervalMs;
        return this;
    }

    public ConsumerOptions setPullErrorRetryMs(long delayMs) {
        this.pullErrorRetryMs = delayMs;
        return this;
    }

    public ConsumerOptions setFlowControlRetryMs(long delayMs) {
        this.flowControlRetryMs = delayMs;
        return this;
    }

    public ConsumerOptions setSuspendCurrentQueueMs(long delayMs) {
        this.suspendCurrentQueueMs = delayMs;
        return this;
    }

    public ConsumerOptions setLocalRetryMs(long delayMs) {
        this.localRetryMs = delayMs;
        return this;
    }

    public ConsumerOptions setLockRenewIntervalMs(long intervalMs) {
        this.lockRenewIntervalMs = intervalMs;
        return this;
    }

    public ConsumerOptions setAllocateStrategy(AllocateStrategy strategy) {
        this.allocateStrategy = strategy;
        return this;
    }

    /**
     * Where BROADCASTING offsets are kept: {@code <dir>/<clientId>/<group>/offsets.json}. The client id holds the
     * instance name, so set a stable one ({@link #setInstanceName}) to find the offsets again after a restart.
     */
    public ConsumerOptions setOffsetStoreDir(Path dir) {
        this.offsetStoreDir = dir;
        return this;
    }

    public String getConsumerGroup() {
        return consumerGroup;
    }

    public MessageModel getMessageModel() {
        return messageModel;
    }

    public ConsumeFromWhere getConsumeFromWhere() {
        return consumeFromWhere;
    }

    public long getConsumeTimestampMs() {
        return consumeTimestampMs;
    }

    public int getPullBatchSize() {
        return pullBatchSize;
    }

    public int getConsumeMessageBatchMaxSize() {
        return consumeMessageBatchMaxSize;
    }

    public int getConsumeConcurrency() {
        return consumeConcurrency;
    }

    public int getPullThresholdForQueue() {
        return pullThresholdForQueue;
    }

    public long pullThresholdBytesForQueue() {
        return pullThresholdSizeForQueueMiB * 1024L * 1024L;
    }

    public int getMaxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    /** The limit that applies: the set one, or RocketMQ's default 16 for -1. */
    public int effectiveMaxReconsumeTimes() {
        return maxReconsumeTimes < 0 ? 16 : maxReconsumeTimes;
    }

    public long getSuspendTimeoutMs() {
        return suspendTimeoutMs;
    }

    public long getPullTimeoutMs() {
        return pullTimeoutMs;
    }

    public long getRebalanceIntervalMs() {
        return rebalanceIntervalMs;
    }

    public long getPersistConsumerOffsetIntervalMs() {
        return persistConsumerOffsetIntervalMs;
    }

    public long getPullErrorRetryMs() {
        return pullErrorRetryMs;
    }

    public long getFlowControlRetryMs() {
        return flowControlRetryMs;
    }

    public long getSuspendCurrentQueueMs() {
        return suspendCurrentQueueMs;
    }

    public long getLocalRetryMs() {
        return localRetryMs;
    }

    public long getLockRenewIntervalMs() {
        return lockRenewIntervalMs;
    }

    public AllocateStrategy getAllocateStrategy() {
        return allocateStrategy;
    }

    public Path getOffsetStoreDir() {
        return offsetStoreDir;
    }

    @Override
    public void validate() {
        super.validate();
        require(consumerGroup != null && !consumerGroup.isBlank(), "consumerGroup", consumerGroup);
        require(messageModel != null, "messageModel", messageModel);
        require(consumeFromWhere != null, "consumeFromWhere", consumeFromWhere);
        require(pullBatchSize > 0 && pullBatchSize <= 1024, "pullBatchSize", pullBatchSize);
        require(consumeMessageBatchMaxSize > 0 && consumeMessageBatchMaxSize <= 1024, "consumeMessageBatchMaxSize",
            consumeMessageBatchMaxSize);
        require(consumeConcurrency > 0, "consumeConcurrency", consumeConcurrency);
        require(pullThresholdForQueue > 0, "pullThresholdForQueue", pullThresholdForQueue);
        require(pullThresholdSizeForQueueMiB > 0, "pullThresholdSizeForQueueMiB", pullThresholdSizeForQueueMiB);
        require(maxReconsumeTimes >= -1, "maxReconsumeTimes", maxReconsumeTimes);
        require(suspendTimeoutMs > 0, "suspendTimeoutMs", suspendTimeoutMs);
        require(pullTimeoutMs > suspendTimeoutMs, "pullTimeoutMs (must exceed suspendTimeoutMs " + suspendTimeoutMs
            + ")", pullTimeoutMs);
        require(rebalanceIntervalMs >= 10, "rebalanceIntervalMs", rebalanceIntervalMs);
        require(persistConsumerOffsetIntervalMs >= 10, "persistConsumerOffsetIntervalMs",
            persistConsumerOffsetIntervalMs);
        require(pullErrorRetryMs > 0, "pullErrorRetryMs", pullErrorRetryMs);
        require(flowControlRetryMs > 0, "flowControlRetryMs", flowControlRetryMs);
        require(suspendCurrentQueueMs > 0, "suspendCurrentQueueMs", suspendCurrentQueueMs);
        require(localRetryMs > 0, "localRetryMs", localRetryMs);
        require(lockRenewIntervalMs >= 10, "lockRenewIntervalMs", lockRenewIntervalMs);
        require(allocateStrategy != null, "allocateStrategy", null);
        require(offsetStoreDir != null, "offsetStoreDir", null);
    }
}
