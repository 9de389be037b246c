package io.vrmq.compat.support;

import java.time.Duration;

/**
 * Bounded polling for state that another process changes on its own schedule: a broker's registration arriving, a
 * route expiring. The bound is a failure deadline, never the thing asserted, so a slow machine only makes the test
 * slower. A wait longer than {@link #REPORTED_WAIT_MS} prints how long it took (into the test's output file), so a slow
 * test says where its time goes. Stateless; any thread.
 */
public final class Await {

    private static final long POLL_INTERVAL_MS = 100;
    private static final long REPORTED_WAIT_MS = 1_000;

    /** A condition to poll; an exception counts as "not yet" and is reported if the deadline passes. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails naming {@code description} after {@code timeout}. */
    public static void until(String description, Duration timeout, Condition condition) {
        long startNanos = System.nanoTime();
        long deadlineNanos = startNanos + timeout.toNanos();
        Exception lastError = null;
        while (true) {
            try {
                if (condition.holds()) {
                    report(description, startNanos);
                    return;
                }
            } catch (Exception e) {
                lastError = e;
            }
            if (System.nanoTime() > deadlineNanos) {
                AssertionError failure = new AssertionError("not true within " + timeout + ": " + description
                    + (lastError == null ? "" : "; last error: " + lastError));
                if (lastError != null) {
                    failure.initCause(lastError);
                }
                throw failure;
            }
            sleep();
        }
    }

    private static void report(String description, long startNanos) {
        long waitedMs = (System.nanoTime() - startNanos) / 1_000_000;
        if (waitedMs > REPORTED_WAIT_MS) {
            System.out.println("awaited " + waitedMs + " ms: " + description);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_INTERVAL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling", e);
        }
    }
}
