package io.vrmq.client;

/**
 * A producer's settings, RocketMQ's DefaultMQProducer names and defaults. Not thread-safe: fill in, then hand over.
 */
public final class ProducerOptions extends ClientOptions<ProducerOptions> {
    public static final long DEFAULT_SEND_TIMEOUT_MS = 3_000;
    /** RocketMQ's retryTimesWhenSendFailed: two more tries, on another broker when there is one. */
    public static final int DEFAULT_RETRY_TIMES_WHEN_SEND_FAILED = 2;
    /** RocketMQ's compressMsgBodyOverHowmuch: bodies of at least 4 KiB are sent ZLIB-compressed. */
    public static final int DEFAULT_COMPRESS_OVER_BYTES = 4 * 1024;
    public static final int DEFAULT_COMPRESS_LEVEL = 5;
    /** The broker's default maxMessageSize: refused here already, before it costs a round trip. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
    /** RocketMQ's defaultTopicQueueNums: queues of a topic the broker creates on its first send. */
    public static final int DEFAULT_TOPIC_QUEUE_NUMS = 4;

    private String producerGroup = "DEFAULT_PRODUCER";
    private long sendTimeoutMs = DEFAULT_SEND_TIMEOUT_MS;
    private int retryTimesWhenSendFailed = DEFAULT_RETRY_TIMES_WHEN_SEND_FAILED;
    private int compressOverBytes = DEFAULT_COMPRESS_OVER_BYTES;
    private int compressLevel = DEFAULT_COMPRESS_LEVEL;
    private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private int defaultTopicQueueNums = DEFAULT_TOPIC_QUEUE_NUMS;
    private boolean sendLatencyFaultEnable = true;

    @Override
    protected ProducerOptions self() {
        return this;
    }

    public ProducerOptions setProducerGroup(String group) {
        this.producerGroup = group;
        return this;
    }

    public ProducerOptions setSendTimeoutMs(long timeoutMs) {
        this.sendTimeoutMs = timeoutMs;
        return this;
    }

    public ProducerOptions setRetryTimesWhenSendFailed(int times) {
        this.retryTimesWhenSendFailed = times;
        return this;
    }

    public ProducerOptions setCompressOverBytes(int bytes) {
        this.compressOverBytes = bytes;
        return this;
    }

    public ProducerOptions setCompressLevel(int level) {
        this.compressLevel = level;
        return this;
    }

    public ProducerOptions setMaxMessageBytes(int bytes) {
        this.maxMessageBytes = bytes;
        return this;
    }

    public ProducerOptions setDefaultTopicQueueNums(int queueNums) {
        this.defaultTopicQueueNums = queueNums;
        return this;
    }

    /** Latency-based broker avoidance (RocketMQ's sendLatencyFaultEnable); on by default here. */
    public ProducerOptions setSendLatencyFaultEnable(boolean isEnabled) {
        this.sendLatencyFaultEnable = isEnabled;
        return this;
    }

    public String getProducerGroup() {
        return producerGroup;
    }

    public long getSendTimeoutMs() {
        return sendTimeoutMs;
    }

    public int getRetryTimesWhenSendFailed() {
        return retryTimesWhenSendFailed;
    }

    public int getCompressOverBytes() {
        return compressOverBytes;
    }

    public int getCompressLevel() {
        return compressLevel;
    }

    public int getMaxMessageBytes() {
        return maxMessageBytes;
    }

    public int getDefaultTopicQueueNums() {
        return defaultTopicQueueNums;
    }

    public boolean isSendLatencyFaultEnable() {
        return sendLatencyFaultEnable;
    }

    @Override
    public void validate() {
        super.validate();
        require(producerGroup != null && !producerGroup.isBlank(), "producerGroup", producerGroup);
        require(sendTimeoutMs > 0, "sendTimeoutMs", sendTimeoutMs);
        require(retryTimesWhenSendFailed >= 0, "retryTimesWhenSendFailed", retryTimesWhenSendFailed);
        require(compressOverBytes > 0, "compressOverBytes", compressOverBytes);
        require(compressLevel >= 0 && compressLevel <= 9, "compressLevel", compressLevel);
        require(maxMessageBytes > 0, "maxMessageBytes", maxMessageBytes);
        require(defaultTopicQueueNums > 0, "defaultTopicQueueNums", defaultTopicQueueNums);
    }
}
