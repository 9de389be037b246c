package io.vrmq.compat.broker.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.vrmq.compat.support.Await;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Messages delivered to listeners, in arrival order, with the name of the consumer that got each. Listener threads
 * add, the test thread reads; every method is synchronized.
 */
public final class Received {

    /** One delivery: which consumer, the message, and when this JVM saw it (System.currentTimeMillis()). */
    public record Delivery(String consumer, MessageExt message, long receivedAtMs) {
        public String body() {
            return new String(message.getBody(), StandardCharsets.UTF_8);
        }
    }

    private final List<Delivery> deliveries = new ArrayList<>();

    public synchronized void add(String consumer, Collection<MessageExt> messages) {
        long now = System.currentTimeMillis();
        for (MessageExt message : messages) {
            deliveries.add(new Delivery(consumer, message, now));
        }
    }

    public synchronized List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    public synchronized List<String> bodies() {
        return deliveries.stream().map(Delivery::body).toList();
    }

    public synchronized Set<String> distinctBodies() {
        return deliveries.stream().map(Delivery::body).collect(Collectors.toSet());
    }

    /** Bodies delivered to {@code consumer}, in arrival order. */
    public synchronized List<String> bodiesOf(String consumer) {
        return deliveries.stream().filter(delivery -> delivery.consumer().equals(consumer)).map(Delivery::body)
            .toList();
    }

    /** Bodies delivered more than once (to any consumer), with their counts. */
    public synchronized Map<String, Integer> duplicates() {
        Map<String, Integer> counts = new HashMap<>();
        deliveries.forEach(delivery -> counts.merge(delivery.body(), 1, Integer::sum));
        counts.values().removeIf(count -> count == 1);
        return counts;
    }

    /** Waits for the first delivery and returns it. */
    public Delivery awaitFirst(Duration timeout) {
        Await.until("a delivery", timeout, () -> size() > 0);
        return deliveries().get(0);
    }

    /** Waits until every body of {@code expected} was delivered at least once. */
    public void awaitAll(Collection<String> expected, Duration timeout) {
        Set<String> wanted = new HashSet<>(expected);
        try {
            Await.until("delivery of all " + wanted.size() + " messages", timeout,
                () -> distinctBodies().containsAll(wanted));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; never delivered: " + missing(wanted, distinctBodies()), e);
        }
    }

    /** Waits until {@code consumer} got every body of {@code expected} at least once. */
    public void awaitAllBy(String consumer, Collection<String> expected, Duration timeout) {
        Set<String> wanted = new HashSet<>(expected);
        try {
            Await.until(consumer + " receiving all " + wanted.size() + " messages", timeout,
                () -> new HashSet<>(bodiesOf(consumer)).containsAll(wanted));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; never delivered to " + consumer + ": "
                + missing(wanted, new HashSet<>(bodiesOf(consumer))), e);
        }
    }

    private static Set<String> missing(Set<String> wanted, Set<String> got) {
        Set<String> missing = new HashSet<>(wanted);
        missing.removeAll(got);
        return missing;
    }

    public synchronized int size() {
        return deliveries.size();
    }
}
