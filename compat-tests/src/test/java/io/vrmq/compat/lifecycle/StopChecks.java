package io.vrmq.compat.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;

import io.vrmq.compat.support.ChildJvm;

/**
 * Signals a child at a {@link KillPoint} and checks how it ended. Our launcher bounds its whole stop by
 * {@code shutdownGraceMs} and exits 0 after a clean stop (also one that came before its start completed), 1 when it
 * had to give up; a blocked-thread warning in the output is always a failure. Stateless; test thread.
 */
final class StopChecks {
    /** The NameServer's and the broker's default shutdownGraceMs. */
    static final long DEFAULT_GRACE_MS = 3_000;
    /** The controller's default (Raft's own close takes about a second), also a JVM's that runs a controller. */
    static final long CONTROLLER_GRACE_MS = 5_000;
    /** Beyond the grace: the signal reaching the JVM and the JVM ending after its halt. */
    static final Duration EXIT_MARGIN = Duration.ofSeconds(2);
    static final String BLOCKED_THREAD_WARNING = "has been blocked for";
    /** A JVM killed by SIGTERM before it ran any code of ours: only ever with an empty log. */
    private static final int SIGTERM_BEFORE_MAIN = 143;
    private static final Duration KILL_EXIT_TIMEOUT = Duration.ofSeconds(10);

    private StopChecks() {
    }

    /**
     * Waits for {@code point}, sends SIGTERM and checks: exit within the grace plus {@link #EXIT_MARGIN}, exit code 0
     * (143 only when the child had logged nothing: the signal came before our shutdown hook existed), no blocked
     * thread, no ERROR line (a file that could not be written, a stop step that failed). Returns what the child
     * logged.
     */
    static String sigtermAt(ChildJvm child, KillPoint point, long graceMs) {
        point.await(child);
        long signalledNanos = System.nanoTime();
        child.terminate();
        Duration bound = Duration.ofMillis(graceMs).plus(EXIT_MARGIN);
        if (!child.awaitExit(bound)) {
            child.kill();
            fail(child.name() + " did not exit within " + bound + " of SIGTERM " + point + child.describeLog());
        }
        long tookMs = (System.nanoTime() - signalledNanos) / 1_000_000;
        String log = child.logSinceStart();
        int code = child.exitCode();
        boolean isBeforeMain = code == SIGTERM_BEFORE_MAIN && point.isEarly() && log.isBlank();
        if (!isBeforeMain) {
            assertEquals(0, code, child.name() + " exit code after SIGTERM " + point + child.describeLog());
        }
        assertNoBlockedThread(child, log);
        List<String> errors = log.lines().filter(line -> line.contains(" ERROR ")).toList();
        assertEquals(List.of(), errors, child.name() + " logged errors around SIGTERM " + point);
        System.out.printf("%s: SIGTERM %s -> exit %d after %d ms%s%n", child.name(), point, code, tookMs,
            isBeforeMain ? " (before the JVM ran our main)" : "");
        return log;
    }

    /** Waits {@code delayMs} after the launch, then SIGKILL; reports what the child had got to. */
    static void sigkillAfter(ChildJvm child, long delayMs, String label) {
        pause(delayMs);
        child.kill();
        if (!child.awaitExit(KILL_EXIT_TIMEOUT)) {
            fail(child.name() + " survived SIGKILL");
        }
        String log = child.logSinceStart();
        assertNoBlockedThread(child, log);
        String[] lines = log.strip().split("\n");
        System.out.printf("%s: SIGKILL %s (%d ms) -> last line: %s%n", child.name(), label, delayMs,
            lines[lines.length - 1]);
    }

    /**
     * A start that fails: the child exits by itself within {@code timeout} with code 1, says why ("start failed:")
     * and never reports a blocked thread (the exit runs off the event loop). Returns what it logged.
     */
    static String awaitFailedStart(ChildJvm child, Duration timeout) {
        if (!child.awaitExit(timeout)) {
            child.kill();
            fail(child.name() + " did not exit within " + timeout + " of a failed start" + child.describeLog());
        }
        String log = child.logSinceStart();
        assertEquals(1, child.exitCode(), child.name() + " exit code after a failed start" + child.describeLog());
        assertTrue(log.contains("start failed: "), child.name() + " says why its start failed" + child.describeLog());
        assertNoBlockedThread(child, log);
        return log;
    }

    /** A start after a clean stop (or a stop during a start) finds no damaged record and no torn tail. */
    static void assertNoDamage(ChildJvm child) {
        String log = child.logSinceStart();
        assertFalse(log.contains("damage skipped") || log.contains("torn tail"), child.name()
            + " found damage after a clean stop" + child.describeLog());
    }

    static void assertNoBlockedThread(ChildJvm child, String log) {
        assertFalse(log.contains(BLOCKED_THREAD_WARNING), child.name() + " blocked a thread" + child.describeLog());
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
