package io.vrmq.broker.admin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** An offset reset's progress lines: none for a quick reset, then queues done, percent and time left, then done. */
@Timeout(10)
class ResetProgressTest {

    @Test
    void aQuickResetPrintsNothingNotEvenTheClosingLine() {
        AtomicLong clockMs = new AtomicLong(1_000);
        ResetProgress progress = new ResetProgress("resetting offsets of group g on topic t", 8, clockMs::get);
        clockMs.addAndGet(ResetProgress.INTERVAL_MS - 1);
        assertNull(progress.at(8));
        assertNull(progress.done());
    }

    @Test
    void aLongResetSaysHowFarAndHowLongIsLeftEveryIntervalThenThatItIsDone() {
        AtomicLong clockMs = new AtomicLong(0);
        ResetProgress progress = new ResetProgress("resetting offsets of group g on topic t", 1000, clockMs::get);
        clockMs.set(2_000);
        assertEquals("resetting offsets of group g on topic t: 250 of 1000 queues (25%), 2 s so far, about 6 s left",
            progress.at(250));
        clockMs.set(3_000);
        assertNull(progress.at(300), "the next line waits a whole interval");
        clockMs.set(4_000);
        assertEquals("resetting offsets of group g on topic t: 500 of 1000 queues (50%), 4 s so far, about 4 s left",
            progress.at(500));
        clockMs.set(8_000);
        assertEquals("resetting offsets of group g on topic t: done, 1000 queues in 8 s", progress.done());
    }
}
