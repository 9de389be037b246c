package io.vrmq.compat.lifecycle;

import java.time.Duration;

import io.vrmq.compat.support.ChildJvm;

/**
 * A moment in a child's life at which a test sends it a signal: a fixed time after the launch (the JVM may not even
 * have reached main then), or as soon as a line of its own log appears. Immutable.
 *
 * @param name           how the test reports it
 * @param logLine        the fragment to wait for, or null for a point in time
 * @param afterLaunchMs  for a point in time: how long after the launch (the test calls {@link #await} right after it)
 */
record KillPoint(String name, String logLine, long afterLaunchMs) {
    /** Short: a recovery that the signal should land in may itself take only a few hundred milliseconds. */
    private static final long POLL_INTERVAL_MS = 5;
    private static final Duration LINE_TIMEOUT = Duration.ofSeconds(60);

    static final KillPoint AT_ONCE = new KillPoint("at once", null, 0);
    /** Inside the JVM's own start: classes loading, logging not set up yet. */
    static final KillPoint JUST_AFTER_THE_LAUNCH = new KillPoint("300 ms after the launch", null, 300);

    static KillPoint atLine(String name, String logLine) {
        return new KillPoint(name, logLine, 0);
    }

    /** A point in time rather than a log line: the JVM may not have reached our main, or logged anything yet. */
    boolean isEarly() {
        return logLine == null;
    }

    /** Returns when the point is reached; fails if the child exits first. */
    void await(ChildJvm child) {
        if (logLine != null) {
            child.awaitLogLine(logLine, LINE_TIMEOUT, POLL_INTERVAL_MS);
        } else if (afterLaunchMs > 0) {
            pause(afterLaunchMs);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
