package io.vrmq.broker.transaction;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageProperties;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** RocketMQ's check rules on one half message, with timeout 6 s and 15 checks. */
class CheckVerdictTest {
    private static final TransactionConfig CONFIG = new TransactionConfig(6_000, 15, 30_000);
    private static final long FILE_RESERVED_MS = 72 * 3_600_000L;
    private static final long RUN_START_MS = 1_000_000_000L;

    @Test
    void halfMessageOlderThanTheTimeoutIsChecked() {
        assertEquals(CheckVerdict.CHECK, verdict(RUN_START_MS - 6_001, Map.of()));
    }

    @Test
    void halfMessageYoungerThanTheTimeoutEndsTheRun() {
        assertEquals(CheckVerdict.WAIT, verdict(RUN_START_MS - 5_000, Map.of()));
    }

    @Test
    void halfMessageStoredAfterTheRunBeganEndsTheRun() {
        StoredMessage half = half(RUN_START_MS - 60_000, RUN_START_MS, Map.of());
        assertEquals(CheckVerdict.WAIT, CheckVerdict.of(half, RUN_START_MS, CONFIG, FILE_RESERVED_MS));
    }

    @Test
    void halfMessageCheckedTransactionCheckMaxTimesIsDiscarded() {
        assertEquals(CheckVerdict.DISCARD, verdict(RUN_START_MS - 60_000, Map.of(TransactionNames.CHECK_TIMES, "15")));
        assertEquals(CheckVerdict.CHECK, verdict(RUN_START_MS - 60_000, Map.of(TransactionNames.CHECK_TIMES, "14")));
    }

    @Test
    void halfMessageOlderThanTheStoreKeepsFilesIsDiscarded() {
        assertEquals(CheckVerdict.DISCARD, verdict(RUN_START_MS - FILE_RESERVED_MS - 1, Map.of()));
    }

    @Test
    void ownImmunityTimeLongerThanTheTimeoutSkipsTheMessageWithoutEndingTheRun() {
        Map<String, String> immunity = Map.of(TransactionNames.CHECK_IMMUNITY_TIME_IN_SECONDS, "60");
        assertEquals(CheckVerdict.IMMUNE, verdict(RUN_START_MS - 30_000, immunity));
        assertEquals(CheckVerdict.CHECK, verdict(RUN_START_MS - 60_001, immunity));
    }

    @Test
    void ownImmunityTimeShorterThanTheTimeoutCountsAsTheTimeout() {
        Map<String, String> immunity = Map.of(TransactionNames.CHECK_IMMUNITY_TIME_IN_SECONDS, "1");
        assertEquals(CheckVerdict.IMMUNE, verdict(RUN_START_MS - 5_000, immunity));
        assertEquals(6_000, CONFIG.immunityMs("1"));
        assertEquals(6_000, CONFIG.immunityMs("not a number"));
    }

    @Test
    void halfMessageBornInTheFutureIsCheckedAtOnce() {
        assertEquals(CheckVerdict.CHECK, verdict(RUN_START_MS + 5_000, Map.of()));
    }

    private static CheckVerdict verdict(long bornMs, Map<String, String> properties) {
        return CheckVerdict.of(half(bornMs, RUN_START_MS - 1, properties), RUN_START_MS, CONFIG, FILE_RESERVED_MS);
    }

    private static StoredMessage half(long bornMs, long storeMs, Map<String, String> extra) {
        Map<String, String> properties = new HashMap<>(extra);
        properties.put("REAL_TOPIC", "T");
        properties.put("REAL_QID", "0");
        return new StoredMessage(TransactionNames.HALF_TOPIC, 0, 0, 7, 4_096, 0, bornMs,
            new InetSocketAddress("127.0.0.1", 5_000), storeMs, new byte[] {127, 0, 0, 1}, 10_911, 0,
            new byte[] {1}, MessageProperties.format(properties));
    }
}
