package io.vrmq.compat.broker.support;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.vrmq.compat.support.Await;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;

/**
 * Consumes a topic with a new official push consumer group (from the first offset) and reports the message keys it
 * received: for checking that a broker, a slave after failover for instance, serves a whole set of messages, without
 * comparing bodies of several KiB. Test thread only.
 */
public final class ConsumedKeys {

    private ConsumedKeys() {
    }

    /**
     * Starts a push consumer of {@code topic} ({@code expression}, e.g. a tag) in {@code group}, waits until it has
     * received every key of {@code expected}, and returns the distinct keys received by then (a superset, if the
     * topic held more). The consumer is shut down with the caller's scope.
     */
    public static Set<String> consumeUntilAll(BrokerClients clients, String group, String topic, String expression,
                                              Set<String> expected, Duration timeout) throws Exception {
        Received received = new Received();
        MessageListenerConcurrently listener = (messages, context) -> {
            received.add(group, messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
        clients.pushConsumer(group, topic, expression, listener, consumer -> { });
        try {
            Await.until(group + " receiving all " + expected.size() + " keys", timeout,
                () -> keysOf(received).containsAll(expected));
        } catch (AssertionError e) {
            Set<String> missing = new TreeSet<>(expected);
            missing.removeAll(keysOf(received));
            throw new AssertionError(e.getMessage() + "; " + missing.size() + " never delivered: " + missing, e);
        }
        return keysOf(received);
    }

    private static Set<String> keysOf(Received received) {
        return received.deliveries().stream().map(delivery -> delivery.message().getKeys())
            .collect(Collectors.toSet());
    }
}
