package io.vrmq.client.it.support;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vrmq.client.ReceivedMessage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a test's consumers received, by message id: every delivery is kept, so duplicates can be counted. A test
 * waits on {@link #until} instead of sleeping. Thread-safe (listeners of several consumers may call it).
 */
public final class Received {
    private final List<ReceivedMessage> deliveries = new ArrayList<>();
    private final Map<String, Integer> countsById = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();

    public synchronized void add(List<ReceivedMessage> messages) {
        for (ReceivedMessage message : messages) {
            deliveries.add(message);
            countsById.merge(message.msgId(), 1, Integer::sum);
        }
        waiters.removeIf(waiter -> {
            if (waiter.condition.test(this)) {
                waiter.promise.tryComplete();
                return true;
            }
            return false;
        });
    }

    /** Completes once {@code condition} holds (at once if it already does). */
    public synchronized Future<Void> until(Predicate<Received> condition) {
        Promise<Void> promise = Promise.promise();
        if (condition.test(this)) {
            promise.complete();
        } else {
            waiters.add(new Waiter(condition, promise));
        }
        return promise.future();
    }

    public synchronized Future<Void> untilDistinct(int count) {
        return until(received -> received.distinctCount() >= count);
    }

    public synchronized List<ReceivedMessage> deliveries() {
        return List.copyOf(deliveries);
    }

    public synchronized int distinctCount() {
        return countsById.size();
    }

    public synchronized int deliveryCount() {
        return deliveries.size();
    }

    /** Deliveries beyond the first of each message. */
    public synchronized int duplicateCount() {
        return deliveries.size() - countsById.size();
    }

    public synchronized boolean contains(String msgId) {
        return countsById.containsKey(msgId);
    }

    private record Waiter(Predicate<Received> condition, Promise<Void> promise) {
    }
}
