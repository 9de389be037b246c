package io.vrmq.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for a state reached asynchronously (a leader elected, a connection close seen, an election done) by asking
 * again on a Vert.x timer, a bounded number of times. The bound is a safety net, not an assertion on timing.
 */
final class Eventually {
    static final int MAX_ATTEMPTS = 300;
    static final long PAUSE_MS = 50;

    private Eventually() {
    }

    /** Completes with the first answer that satisfies {@code isDone}; fails after {@link #MAX_ATTEMPTS}. */
    static <T> Future<T> until(Vertx vertx, Supplier<Future<T>> attempt, Predicate<T> isDone, String what) {
        return attempt(vertx, attempt, isDone, what, 1);
    }

    private static <T> Future<T> attempt(Vertx vertx, Supplier<Future<T>> attempt, Predicate<T> isDone, String what,
                                         int attemptNumber) {
        return attempt.get().transform(answer -> {
            if (answer.succeeded() && isDone.test(answer.result())) {
                return Future.succeededFuture(answer.result());
            }
            if (attemptNumber >= MAX_ATTEMPTS) {
                return Future.failedFuture(new AssertionError("not reached after " + attemptNumber
                    + " attempts: " + what + "; last answer " + (answer.succeeded() ? answer.result()
                    : answer.cause())));
            }
            return vertx.timer(PAUSE_MS).compose(fired -> attempt(vertx, attempt, isDone, what, attemptNumber + 1));
        });
    }
}
