package io.vrmq.store;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The recovery's progress lines: none before the interval, then what, how far and how long is left. */
class RecoveryProgressTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void noLineBeforeTheFirstInterval() {
        AtomicLong clockMs = new AtomicLong(1_000);
        RecoveryProgress progress = new RecoveryProgress("walking the commit log", 0, 100 * MIB, clockMs::get);
        clockMs.addAndGet(RecoveryProgress.INTERVAL_MS - 1);
        assertNull(progress.at(10 * MIB));
    }

    @Test
    void lineSaysHowFarAndEstimatesTheTimeLeftFromTheRateSoFar() {
        AtomicLong clockMs = new AtomicLong(0);
        RecoveryProgress progress = new RecoveryProgress("walking the commit log", 50 * MIB, 150 * MIB, clockMs::get);
        clockMs.set(10_000);
        assertEquals("walking the commit log: 25.0 of 100.0 MiB (25%), 10 s so far, about 30 s left",
            progress.at(75 * MIB));
        clockMs.set(12_000);
        assertNull(progress.at(80 * MIB), "the next line waits a whole interval");
        clockMs.set(15_000);
        assertEquals("walking the commit log: 50.0 of 100.0 MiB (50%), 15 s so far, about 15 s left",
            progress.at(100 * MIB));
    }
}
