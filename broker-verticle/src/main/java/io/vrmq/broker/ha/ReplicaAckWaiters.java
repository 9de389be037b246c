package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * Sends waiting for their replicas, by the end offset of their message: a SYNC_MASTER's for a slave (classic HA),
 * a controller-mode master's for its in-sync replicas (AutoSwitch HA). Whether an offset is replicated enough is
 * monotone (if a later offset is, every earlier one is), so a check stops at the first waiter not yet satisfied.
 * Confined to the context of the HA side that owns it (no locks): acknowledgements, expiry and new waits run there.
 */
public final class ReplicaAckWaiters {
    private final NavigableMap<Long, List<Waiter>> byEndOffset = new TreeMap<>();

    private record Waiter(Promise<SlaveAck> promise, long deadlineMs) {
    }

    public Future<SlaveAck> await(long endOffset, long deadlineMs) {
        Promise<SlaveAck> promise = Promise.promise();
        byEndOffset.computeIfAbsent(endOffset, offset -> new ArrayList<>(1)).add(new Waiter(promise, deadlineMs));
        return promise.future();
    }

    /** Completes with OK the waits whose end offset {@code isReplicated} accepts, lowest first. */
    public void release(LongPredicate isReplicated) {
        Iterator<Map.Entry<Long, List<Waiter>>> entries = byEndOffset.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<Long, List<Waiter>> entry = entries.next();
            if (!isReplicated.test(entry.getKey())) {
                return;
            }
            entry.getValue().forEach(waiter -> waiter.promise().tryComplete(SlaveAck.OK));
            entries.remove();
        }
    }

    /** Ends the waits whose deadline passed with {@link SlaveAck#TIMEOUT}. */
    public void expire(long nowMs) {
        Iterator<List<Waiter>> lists = byEndOffset.values().iterator();
        while (lists.hasNext()) {
            List<Waiter> waiters = lists.next();
            waiters.removeIf(waiter -> waiter.deadlineMs() <= nowMs && waiter.promise().tryComplete(SlaveAck.TIMEOUT));
            if (waiters.isEmpty()) {
                lists.remove();
            }
        }
    }

    public void endAll(SlaveAck outcome) {
        byEndOffset.values().forEach(waiters -> waiters.forEach(waiter -> waiter.promise().tryComplete(outcome)));
        byEndOffset.clear();
    }

    public int size() {
        return byEndOffset.values().stream().mapToInt(List::size).sum();
    }
}
