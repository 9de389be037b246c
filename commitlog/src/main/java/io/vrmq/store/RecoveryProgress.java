package io.vrmq.store;

import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress lines for a long walk over the CommitLog at start-up (the recovery walk, the re-dispatch): what, how far
 * in bytes and percent, and how long is left at the rate so far, at most once per {@link #INTERVAL_MS}, so a short
 * recovery prints nothing and a long one tells the operator it is alive. Logged at INFO, which the launchers print on
 * the console. Not thread-safe: the opening thread owns it; a clock is passed in for tests.
 */
final class RecoveryProgress {
    /** How often a line is printed while a walk lasts: often enough to show life, rarely enough to stay readable. */
    static final long INTERVAL_MS = 5_000;
    private static final Logger log = LoggerFactory.getLogger(RecoveryProgress.class);
    private static final double BYTES_PER_MIB = 1024.0 * 1024.0;

    private final String what;
    private final long fromOffset;
    private final long toOffset;
    private final LongSupplier clockMs;
    private final long startMs;
    private long nextLineMs;

    RecoveryProgress(String what, long fromOffset, long toOffset, LongSupplier clockMs) {
        this.what = what;
        this.fromOffset = fromOffset;
        this.toOffset = Math.max(fromOffset, toOffset);
        this.clockMs = clockMs;
        this.startMs = clockMs.getAsLong();
        this.nextLineMs = startMs + INTERVAL_MS;
    }

    /** Called as the walk advances; returns the line when one was due (and logged), else null. */
    String at(long offset) {
        long nowMs = clockMs.getAsLong();
        if (nowMs < nextLineMs) {
            return null;
        }
        nextLineMs = nowMs + INTERVAL_MS;
        String line = line(offset, nowMs);
        log.info(line);
        return line;
    }

    String line(long offset, long nowMs) {
        long doneBytes = Math.max(0, Math.min(offset, toOffset) - fromOffset);
        long totalBytes = toOffset - fromOffset;
        double percent = totalBytes == 0 ? 100.0 : doneBytes * 100.0 / totalBytes;
        long elapsedMs = Math.max(1, nowMs - startMs);
        String left = doneBytes == 0 ? "unknown"
            : Math.round((totalBytes - doneBytes) * (double) elapsedMs / doneBytes / 1_000.0) + " s";
        return String.format("%s: %.1f of %.1f MiB (%.0f%%), %d s so far, about %s left", what,
            doneBytes / BYTES_PER_MIB, totalBytes / BYTES_PER_MIB, percent, elapsedMs / 1_000, left);
    }
}
