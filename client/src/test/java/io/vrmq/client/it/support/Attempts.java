package io.vrmq.client.it.support;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.function.Supplier;

/** Retries an asynchronous action on a Vert.x timer until it succeeds: waiting for a recovery without sleeping. */
public final class Attempts {
    private Attempts() {
    }

    public static <T> Future<T> until(Vertx vertx, int attempts, long intervalMs, Supplier<Future<T>> action) {
        return action.get().recover(error -> attempts <= 1 ? Future.failedFuture(error)
            : vertx.timer(intervalMs).compose(fired -> until(vertx, attempts - 1, intervalMs, action)));
    }
}
