package io.vrmq.broker.transaction;

import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * END_TRANSACTION's (37) header, RocketMQ's EndTransactionRequestHeader: the half message is found by
 * {@code commitLogOffset} and must sit at {@code tranStateTableOffset} in the half queue and belong to
 * {@code producerGroup}; {@code commitOrRollback} is a {@link TransactionSysFlag} type (0 unknown, 8 commit,
 * 12 rollback); {@code fromTransactionCheck} when the producer answers a CHECK_TRANSACTION_STATE.
 */
public record EndTransactionRequest(String topic, String producerGroup, long tranStateTableOffset,
                                    long commitLogOffset, int commitOrRollback, boolean isFromTransactionCheck,
                                    String msgId, String transactionId) {

    public static EndTransactionRequest decode(RemotingCommand request) {
        HeaderFields header = request.header();
        return new EndTransactionRequest(
            header.optionalString("topic"),
            header.requiredString("producerGroup"),
            header.requiredLong("tranStateTableOffset"),
            header.requiredLong("commitLogOffset"),
            header.requiredInt("commitOrRollback"),
            header.optionalBoolean("fromTransactionCheck", false),
            header.requiredString("msgId"),
            header.optionalString("transactionId"));
    }

    public boolean isCommit() {
        return commitOrRollback == TransactionSysFlag.COMMIT_TYPE;
    }

    public boolean isRollback() {
        return commitOrRollback == TransactionSysFlag.ROLLBACK_TYPE;
    }
}
