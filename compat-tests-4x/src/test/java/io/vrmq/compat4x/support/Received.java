package io.vrmq.compat4x.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;

import org.apache.rocketmq.common.message.MessageExt;

/**
 * What a consumer's listener was given, in arrival order, with this JVM's clock at arrival. Thread-safe: listener
 * threads add, the test thread reads.
 */
public final class Received {

    /** One delivery and when this JVM saw it (System.currentTimeMillis()). */
    public record Delivery(MessageExt message, long receivedAtMs) {
        public String body() {
            return new String(message.getBody(), StandardCharsets.UTF_8);
        }
    }

    private final List<Delivery> deliveries = new ArrayList<>();

    public synchronized void add(Collection<MessageExt> messages) {
        long now = System.currentTimeMillis();
        messages.forEach(message -> deliveries.add(new Delivery(message, now)));
    }

    public synchronized List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    public synchronized List<String> bodies() {
        return deliveries.stream().map(Delivery::body).toList();
    }

    /** Waits until every body of {@code expected} was delivered at least once. */
    public void awaitAll(Collection<String> expected, Duration timeout) {
        Await.until("all of " + expected.size() + " messages delivered", timeout,
            () -> new HashSet<>(bodies()).containsAll(expected));
    }

    public static List<String> bodiesOf(List<Delivery> deliveries) {
        return new ArrayList<>(deliveries.stream().map(Delivery::body).toList());
    }
}
