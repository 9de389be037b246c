package io.vrmq.broker.admin;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The value formats mqadmin prints and parses, as RocketMQ writes them. */
class BrokerRuntimeInfoTest {

    @Test
    void byteCountsUseBinaryUnitsWithOneDecimal() {
        Locale previous = Locale.getDefault();
        Locale.setDefault(Locale.ROOT);
        try {
            assertEquals("512 B", BrokerRuntimeInfo.humanReadableBytes(512));
            assertEquals("1.5 KiB", BrokerRuntimeInfo.humanReadableBytes(1536));
            assertEquals("3.0 GiB", BrokerRuntimeInfo.humanReadableBytes(3L * 1024 * 1024 * 1024));
        } finally {
            Locale.setDefault(previous);
        }
    }

    @Test
    void runtimeIsWrittenInDaysHoursMinutesAndSeconds() {
        long elapsedMs = ((2 * 24 + 3) * 3_600 + 4 * 60 + 5) * 1_000L + 999;
        assertEquals("[ 2 days, 3 hours, 4 minutes, 5 seconds ]", BrokerRuntimeInfo.runtime(elapsedMs));
    }
}
