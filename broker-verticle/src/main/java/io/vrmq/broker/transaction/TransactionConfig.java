package io.vrmq.broker.transaction;

import io.vertx.core.json.JsonObject;

/**
 * Transactional-message settings, under RocketMQ's BrokerConfig names and with its 5.x defaults (in
 * {@code broker-defaults.json}).
 *
 * @param transactionTimeOutMs       a half message younger than this (born time to now) is not checked yet: its
 *                                   producer is probably still running the local transaction (RocketMQ: 6 s)
 * @param transactionCheckMax        checks a half message gets before it is discarded to TRANS_CHECK_MAX_TIME_TOPIC
 *                                   (RocketMQ: 15)
 * @param transactionCheckIntervalMs time between two check runs over the half queue (RocketMQ: 30 s)
 */
public record TransactionConfig(long transactionTimeOutMs, int transactionCheckMax, long transactionCheckIntervalMs) {
    /** Below this a check run could start before the previous one's appends are even dispatched. */
    private static final long MIN_CHECK_INTERVAL_MS = 100;

    public TransactionConfig {
        require(transactionTimeOutMs >= 0, "transactionTimeOut", transactionTimeOutMs);
        require(transactionCheckMax > 0, "transactionCheckMax", transactionCheckMax);
        require(transactionCheckIntervalMs >= MIN_CHECK_INTERVAL_MS,
            "transactionCheckInterval (at least " + MIN_CHECK_INTERVAL_MS + " ms)", transactionCheckIntervalMs);
    }

    public static TransactionConfig from(JsonObject json) {
        return new TransactionConfig(json.getLong("transactionTimeOut"), json.getInteger("transactionCheckMax"),
            json.getLong("transactionCheckInterval"));
    }

    /**
     * How old a half message must be before it is checked, and after which its producer may no longer end it
     * without being asked: the larger of its CHECK_IMMUNITY_TIME_IN_SECONDS (seconds) and transactionTimeOut, as
     * RocketMQ's TransactionalMessageUtil.getImmunityTime; transactionTimeOut when the property is absent or not a
     * number.
     */
    public long immunityMs(String checkImmunityTimeInSeconds) {
        if (checkImmunityTimeInSeconds == null) {
            return transactionTimeOutMs;
        }
        try {
            return Math.max(Long.parseLong(checkImmunityTimeInSeconds.trim()) * 1000, transactionTimeOutMs);
        } catch (NumberFormatException e) {
            return transactionTimeOutMs;
        }
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
