package io.vrmq.broker.transaction;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;

import java.util.Map;

/**
 * What a committed half message becomes, as RocketMQ 5.5.0's EndTransactionProcessor.endMessageTransaction builds
 * it: the half message's body, flag, born fields and reconsume times, stored to its REAL_TOPIC / REAL_QID with the
 * transaction type "commit" in its sysFlag and the half message's CommitLog offset as its prepared-transaction offset.
 * Its properties are the half message's without REAL_TOPIC and REAL_QID: UNIQ_KEY, KEYS, TAGS, PGROUP,
 * {@code __transactionId__} and TRAN_MSG=true all stay (RocketMQ clears TRAN_MSG only from its in-memory map after
 * the properties text was built, so the stored message and every consumer still see it). Pure; any thread.
 *
 * @param properties mutable: the caller routes the message (a deliver time still applies) and formats them
 */
public record CommittedMessage(String realTopic, int realQueueId, Map<String, String> properties, int sysFlag) {

    /** The committed form of {@code half}, or null when it names no usable real topic or queue. */
    public static CommittedMessage of(StoredMessage half) {
        Map<String, String> properties = half.propertyMap();
        int queueId = HalfMessages.realQueueId(properties);
        String realTopic = properties.remove(MessageConst.REAL_TOPIC);
        properties.remove(MessageConst.REAL_QUEUE_ID);
        if (realTopic == null || realTopic.isBlank() || queueId < 0) {
            return null;
        }
        return new CommittedMessage(realTopic, queueId, properties,
            TransactionSysFlag.withType(half.sysFlag(), TransactionSysFlag.COMMIT_TYPE));
    }
}
