package io.vrmq.broker.admin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress lines for an offset reset over many queues (INVOKE_BROKER_TO_RESET_OFFSET 222, the admin HTTP reset), in
 * the style of the store recovery's: what, how far in queues and percent, and how long is left at the rate so far, at
 * most once per {@link #INTERVAL_MS}, so a reset of a few queues prints nothing and one over thousands of queues (a
 * time lookup in each consume queue) says it is alive; then one line at the end when it printed any. Logged at INFO,
 * which the launchers print on the console. Not thread-safe: the reader thread that looks the offsets up owns it; a
 * clock is passed in for tests.
 */
final class ResetProgress {
    /** How often a line is printed while a reset lasts. */
    static final long INTERVAL_MS = 2_000;
    private static final Logger log = LoggerFactory.getLogger(ResetProgress.class);

    private final String what;
    private final int queueCount;
    private final LongSupplier clockMs;
    private final long startMs;
    private long nextLineMs;
    private boolean hasPrinted;

    ResetProgress(String what, int queueCount, LongSupplier clockMs) {
        this.what = what;
        this.queueCount = queueCount;
        this.clockMs = clockMs;
        this.startMs = clockMs.getAsLong();
        this.nextLineMs = startMs + INTERVAL_MS;
    }

    /** Called after each queue; returns the line when one was due (and logged), else null. */
    String at(int queuesDone) {
        long nowMs = clockMs.getAsLong();
        if (nowMs < nextLineMs) {
            return null;
        }
        nextLineMs = nowMs + INTERVAL_MS;
        hasPrinted = true;
        String line = line(queuesDone, nowMs);
        log.info(line);
        return line;
    }

    /** The closing line, only after a reset that printed progress (else null). */
    String done() {
        if (!hasPrinted) {
            return null;
        }
        String line = String.format(Locale.ROOT, "%s: done, %d queues in %d s", what, queueCount,
            (clockMs.getAsLong() - startMs) / 1_000);
        log.info(line);
        return line;
    }

    String line(int queuesDone, long nowMs) {
        int done = Math.max(0, Math.min(queuesDone, queueCount));
        double percent = queueCount == 0 ? 100.0 : done * 100.0 / queueCount;
        long elapsedMs = Math.max(1, nowMs - startMs);
        String left = done == 0 ? "unknown" : Math.round((queueCount - done) * (double) elapsedMs / done / 1_000.0)
            + " s";
        return String.format(Locale.ROOT, "%s: %d of %d queues (%.0f%%), %d s so far, about %s left", what, done,
            queueCount, percent, elapsedMs / 1_000, left);
    }
}
