package io.vrmq.broker.transaction;

import io.vrmq.broker.schedule.StoredMessage;

import java.util.Map;

/**
 * What the check service does with an unresolved half message, RocketMQ 5.5.0's rules
 * (TransactionalMessageServiceImpl.check): discard it once it was checked transactionCheckMax times or is older than
 * the store keeps files (fileReservedTime); leave it, and stop the walk, when it was stored after the run began or
 * is younger than transactionTimeOut (later messages are younger still); skip it for now, without stopping, while a
 * CHECK_IMMUNITY_TIME_IN_SECONDS of its own has not passed; otherwise ask its producer. Pure.
 */
public enum CheckVerdict {
    /** Ask the producer (the copy stored for the check counts one more check). */
    CHECK,
    /** Move it to TRANS_CHECK_MAX_TIME_TOPIC: it is never delivered. */
    DISCARD,
    /** Not yet due, and neither is anything after it: the run ends here. */
    WAIT,
    /** Not yet due by its own immunity time; messages after it may be. */
    IMMUNE;

    /** The verdict for {@code half} in a run that began at {@code runStartMs}. */
    public static CheckVerdict of(StoredMessage half, long runStartMs, TransactionConfig config,
                                  long fileReservedMs) {
        Map<String, String> properties = half.propertyMap();
        long ageMs = runStartMs - half.bornTimestamp();
        if (checkTimes(properties) >= config.transactionCheckMax() || ageMs > fileReservedMs) {
            return DISCARD;
        }
        if (half.storeTimestamp() >= runStartMs) {
            return WAIT;
        }
        String immunity = properties.get(TransactionNames.CHECK_IMMUNITY_TIME_IN_SECONDS);
        if (ageMs >= 0 && ageMs <= config.immunityMs(immunity)) {
            return immunity == null ? WAIT : IMMUNE;
        }
        return CHECK;
    }

    /** How many checks the message had: its TRANSACTION_CHECK_TIMES, 0 when absent or unreadable. */
    public static int checkTimes(Map<String, String> properties) {
        String value = properties.get(TransactionNames.CHECK_TIMES);
        try {
            return value == null ? 0 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
