package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * SYNC_MASTER sends waiting for a slave: each waits for an acknowledged offset at or past its message's end.
 * Confined to the HA server's context (no locks): acknowledgements, expiry and new waits all run there.
 */
final class SlaveAckWaiters {
    private final NavigableMap<Long, List<Waiter>> byEndOffset = new TreeMap<>();

    private record Waiter(Promise<SlaveAck> promise, long deadlineMs) {
    }

    Future<SlaveAck> await(long endOffset, long deadlineMs) {
        Promise<SlaveAck> promise = Promise.promise();
        byEndOffset.computeIfAbsent(endOffset, offset -> new ArrayList<>(1)).add(new Waiter(promise, deadlineMs));
        return promise.future();
    }

    /** A slave has everything below {@code ackedOffset}. */
    void acked(long ackedOffset) {
        Map<Long, List<Waiter>> reached = byEndOffset.headMap(ackedOffset, true);
        for (List<Waiter> waiters : reached.values()) {
            waiters.forEach(waiter -> waiter.promise().tryComplete(SlaveAck.OK));
        }
        reached.clear();
    }

    /** Ends the waits whose deadline passed with {@link SlaveAck#TIMEOUT}. */
    void expire(long nowMs) {
        Iterator<List<Waiter>> lists = byEndOffset.values().iterator();
        while (lists.hasNext()) {
            List<Waiter> waiters = lists.next();
            waiters.removeIf(waiter -> waiter.deadlineMs() <= nowMs && waiter.promise().tryComplete(SlaveAck.TIMEOUT));
            if (waiters.isEmpty()) {
                lists.remove();
            }
        }
    }

    /** Ends every wait (shutdown). */
    void endAll(SlaveAck outcome) {
        byEndOffset.values().forEach(waiters -> waiters.forEach(waiter -> waiter.promise().tryComplete(outcome)));
        byEndOffset.clear();
    }

    int size() {
        return byEndOffset.values().stream().mapToInt(List::size).sum();
    }
}
