package io.vrmq.broker.pop;

import io.vertx.core.json.JsonObject;

/**
 * POP consumption settings, under RocketMQ 5.5.0's BrokerConfig names with its defaults (in
 * {@code broker-defaults.json}); validated at start with a message naming the key.
 *
 * @param reviveQueueNum                  queues of the revive log {@code rmq_sys_REVIVE_LOG_<cluster>}; pops spread
 *                                        their checkpoints over them round-robin (RocketMQ: 8)
 * @param reviveIntervalMs                how often the master looks for checkpoints whose invisible time has passed
 *                                        (RocketMQ: 1 s); a message comes back at most this late
 * @param popPollingSize                  held pops per topic, group and queue id before POLLING_FULL (RocketMQ: 1024)
 * @param maxPopPollingSize               held pops in all before POLLING_FULL (RocketMQ: 100000)
 * @param popFromRetryProbability         percent of pops that read the retry topic first (RocketMQ: 20)
 * @param enableRetryTopicV2              retry topic {@code %RETRY%group+topic} instead of {@code %RETRY%group_topic}
 * @param retrieveMessageFromPopRetryTopicV1 with V2 on, half of the pops still read the V1 retry topic
 * @param initPopOffsetByCheckMsgInMem    a group with no offset that starts at MAX still gets a queue from 0 while
 *                                        its first message is in memory (RocketMQ's rule for new topics)
 * @param enablePopMessageThreshold       stop popping a queue while it has popInflightMessageThreshold in flight
 * @param popInflightMessageThreshold     in-flight messages per topic, group and queue (RocketMQ: 10000)
 * @param popCkMaxBufferSize              checkpoints (pops with unacked messages) held in memory; beyond it a pop
 *                                        gets no new messages until some are acked or revived (RocketMQ: 200000)
 * @param maxInvisibleTimeMills           the longest invisible time a pop or change may ask for (RocketMQ proxy: 12 h)
 * @param minInvisibleTimeMillsForRecv    the shortest invisible time for a receive over gRPC (RocketMQ proxy: 10 s);
 *                                        the remoting protocol takes any positive time, as RocketMQ's broker does
 * @param popResponseReturnActualRetryTopic pop replies keep the retry topic instead of the original topic
 * @param defaultMessageRequestMode       a group's mode before SET_MESSAGE_REQUEST_MODE: PULL or POP
 * @param defaultPopShareQueueNum         POP mode: queues a client shares with the next clients; -1 = every client
 *                                        pops every queue
 * @param serverLoadBalancerEnable        QUERY_ASSIGNMENT divides queues among a group's clients (else all queues)
 */
public record PopConfig(int reviveQueueNum, long reviveIntervalMs, int popPollingSize, int maxPopPollingSize,
                        int popFromRetryProbability, boolean enableRetryTopicV2,
                        boolean retrieveMessageFromPopRetryTopicV1, boolean initPopOffsetByCheckMsgInMem,
                        boolean enablePopMessageThreshold, int popInflightMessageThreshold, int popCkMaxBufferSize,
                        long maxInvisibleTimeMills, long minInvisibleTimeMillsForRecv,
                        boolean popResponseReturnActualRetryTopic, String defaultMessageRequestMode,
                        int defaultPopShareQueueNum, boolean serverLoadBalancerEnable) {
    /** RocketMQ's cap on one pop's batch (PopMessageProcessor answers INVALID_PARAMETER above it). */
    public static final int MAX_POP_MESSAGES = 32;
    private static final int MAX_REVIVE_QUEUES = 64;
    private static final long MIN_REVIVE_INTERVAL_MS = 10;

    public PopConfig {
        require(reviveQueueNum > 0 && reviveQueueNum <= MAX_REVIVE_QUEUES, "reviveQueueNum (1.." + MAX_REVIVE_QUEUES
            + ")", reviveQueueNum);
        require(reviveIntervalMs >= MIN_REVIVE_INTERVAL_MS, "reviveInterval (at least " + MIN_REVIVE_INTERVAL_MS
            + " ms)", reviveIntervalMs);
        require(popPollingSize > 0, "popPollingSize", popPollingSize);
        require(maxPopPollingSize > 0, "maxPopPollingSize", maxPopPollingSize);
        require(popFromRetryProbability >= 0 && popFromRetryProbability <= 100, "popFromRetryProbability (0..100)",
            popFromRetryProbability);
        require(popInflightMessageThreshold > 0, "popInflightMessageThreshold", popInflightMessageThreshold);
        require(popCkMaxBufferSize > 0, "popCkMaxBufferSize", popCkMaxBufferSize);
        require(maxInvisibleTimeMills > 0, "maxInvisibleTimeMills", maxInvisibleTimeMills);
        require(minInvisibleTimeMillsForRecv > 0 && minInvisibleTimeMillsForRecv <= maxInvisibleTimeMills,
            "minInvisibleTimeMillsForRecv (positive, at most maxInvisibleTimeMills)", minInvisibleTimeMillsForRecv);
        require("PULL".equals(defaultMessageRequestMode) || "POP".equals(defaultMessageRequestMode),
            "defaultMessageRequestMode (PULL or POP)", defaultMessageRequestMode);
    }

    public static PopConfig from(JsonObject json) {
        return new PopConfig(json.getInteger("reviveQueueNum", 8), json.getLong("reviveInterval", 1_000L),
            json.getInteger("popPollingSize", 1_024), json.getInteger("maxPopPollingSize", 100_000),
            json.getInteger("popFromRetryProbability", 20), json.getBoolean("enableRetryTopicV2", false),
            json.getBoolean("retrieveMessageFromPopRetryTopicV1", true),
            json.getBoolean("initPopOffsetByCheckMsgInMem", true),
            json.getBoolean("enablePopMessageThreshold", false),
            json.getInteger("popInflightMessageThreshold", 10_000), json.getInteger("popCkMaxBufferSize", 200_000),
            json.getLong("maxInvisibleTimeMills", 12 * 3_600_000L),
            json.getLong("minInvisibleTimeMillsForRecv", 10_000L),
            json.getBoolean("popResponseReturnActualRetryTopic", false),
            json.getString("defaultMessageRequestMode", "PULL"), json.getInteger("defaultPopShareQueueNum", -1),
            json.getBoolean("serverLoadBalancerEnable", true));
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
