/**
 * Transactional messages with the unmodified official 5.5.0 {@code TransactionMQProducer} against our NameServer and
 * broker (child JVMs, as in {@code io.vrmq.compat.broker}): half messages, END_TRANSACTION, and the broker's
 * CHECK_TRANSACTION_STATE check-back. Run with
 * {@code mvn -B -pl compat-tests verify -Dit.test='io.vrmq.compat.broker.transaction.**'}.
 */
package io.vrmq.compat.broker.transaction;
