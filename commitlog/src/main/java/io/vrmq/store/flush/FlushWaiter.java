package io.vrmq.store.flush;

import io.vrmq.store.FlushStatus;
import java.util.concurrent.CompletableFuture;

/** An append waiting until the flushed offset passes {@code offset}, or until its deadline. */
final class FlushWaiter {
    final long offset;
    final long deadlineNanos;
    final CompletableFuture<FlushStatus> future = new CompletableFuture<>();

    FlushWaiter(long offset, long deadlineNanos) {
        this.offset = offset;
        this.deadlineNanos = deadlineNanos;
    }
}
