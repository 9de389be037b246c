package io.vrmq.compatgrpc.support;

import java.time.Duration;

/**
 * Bounded polling for what another process does on its own schedule (a route appearing, a message arriving). The
 * bound is a failure deadline, never the thing asserted: a slow machine only makes a test slower. Stateless.
 */
public final class Await {

    private static final long POLL_INTERVAL_MS = 100;

    /** A condition to poll; an exception counts as "not yet" and is reported if the deadline passes. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails naming {@code description} after {@code timeout}. */
    public static void until(String description, Duration timeout, Condition condition) {
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        Exception lastError = null;
        while (true) {
            try {
                if (condition.holds()) {
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
            try {
                Thread.sleep(POLL_INTERVAL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while polling", e);
            }
        }
    }
}
