package io.vrmq.broker.transaction;

import io.vrmq.remoting.message.MessageConst;

import java.util.Map;

/**
 * How a producer's half message is stored, as RocketMQ 5.5.0 does it (SendMessageProcessor and
 * TransactionalMessageBridge.parseHalfMessageInner): a send whose properties say TRAN_MSG=true goes to
 * {@link TransactionNames#HALF_TOPIC} queue 0, with its real topic and queue kept in REAL_TOPIC / REAL_QID and its
 * UNIQ_KEY copied to {@code __transactionId__}. Its sysFlag's transaction type is reset to 0 (not transactional), so
 * the half topic's ConsumeQueue gets an entry for it like any message: that queue is what the check service walks.
 * No consumer subscribes to the half topic, so the message stays invisible until its commit copies it to the real
 * topic. Pure; any thread.
 */
public final class HalfMessages {
    private HalfMessages() {
    }

    /**
     * Whether a send is a half message: TRAN_MSG=true, except a retry that a client before 4.6.1 re-sent itself
     * (reconsumeTimes above 0 with a delay level), which RocketMQ stores as a normal message.
     */
    public static boolean isHalfMessage(Map<String, String> properties, int reconsumeTimes) {
        if (!Boolean.parseBoolean(properties.get(MessageConst.TRANSACTION_PREPARED))) {
            return false;
        }
        return !(reconsumeTimes > 0 && delayLevel(properties) > 0);
    }

    /** Keeps the real destination and the transaction id in {@code properties} (changed in place). */
    public static void keepRealDestination(String topic, int queueId, Map<String, String> properties) {
        String uniqKey = properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        if (uniqKey != null && !uniqKey.isEmpty()) {
            properties.put(MessageConst.TRANSACTION_ID, uniqKey);
        }
        properties.put(MessageConst.REAL_TOPIC, topic);
        properties.put(MessageConst.REAL_QUEUE_ID, Integer.toString(queueId));
    }

    /** The sysFlag a half message is stored with: the producer's, transaction type reset to 0. */
    public static int storedSysFlag(int sentSysFlag) {
        return TransactionSysFlag.withType(sentSysFlag, TransactionSysFlag.NOT_TYPE);
    }

    /** The REAL_QID a half message keeps, or -1 when it has none that parses. */
    static int realQueueId(Map<String, String> properties) {
        String value = properties.get(MessageConst.REAL_QUEUE_ID);
        try {
            return value == null ? -1 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int delayLevel(Map<String, String> properties) {
        String level = properties.get(MessageConst.DELAY_TIME_LEVEL);
        try {
            return level == null ? 0 : Integer.parseInt(level.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
