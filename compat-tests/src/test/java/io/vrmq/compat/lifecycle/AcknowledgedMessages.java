package io.vrmq.compat.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.TopicReader;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The messages of one topic that the official producer got SEND_OK for, and the check that a broker serves every one
 * of them. Each body starts with a unique key ("m-17:") and is padded to a fixed size, so a few thousand fill many
 * small commit-log segments. Thread-safe: the load thread adds while the test thread reads.
 */
final class AcknowledgedMessages {
    private static final String TAG = "TagA";
    /** After a failed send (the broker is down), the load sender waits this long before the next try. */
    private static final long RETRY_PAUSE_MS = 100;

    private final String topic;
    private final int bodyBytes;
    private final Set<String> keys = ConcurrentHashMap.newKeySet();
    private final AtomicInteger nextSequence = new AtomicInteger();

    AcknowledgedMessages(String topic, int bodyBytes) {
        this.topic = topic;
        this.bodyBytes = bodyBytes;
    }

    String topic() {
        return topic;
    }

    int count() {
        return keys.size();
    }

    /** Sends {@code count} messages in batches of {@code batchSize} (one queue each); every batch must be SEND_OK. */
    void sendBatches(DefaultMQProducer producer, int count, int batchSize) throws Exception {
        for (int sent = 0; sent < count; sent += batchSize) {
            List<Message> batch = new ArrayList<>();
            for (int i = 0; i < Math.min(batchSize, count - sent); i++) {
                batch.add(next());
            }
            SendResult result = producer.send(batch);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            batch.forEach(message -> keys.add(keyOf(message.getBody())));
        }
    }

    /** Sends one message after another on a thread of its own until {@link Load#stop()}; failures are retried. */
    Load sendContinuously(DefaultMQProducer producer) {
        Load load = new Load(producer);
        load.thread.start();
        return load;
    }

    /** Every acknowledged message is readable in the topic (read from offset 0 of every queue, official consumer). */
    void assertAllServed(TopicReader reader, Duration timeout, String when) throws Exception {
        Set<String> expected = Set.copyOf(keys);
        Set<String> served = new TreeSet<>();
        for (MessageExt message : reader.readAll(topic, expected.size(), timeout)) {
            if (!Topics.CREATE_TAG.equals(message.getTags())) {
                served.add(keyOf(message.getBody()));
            }
        }
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(served);
        assertEquals(Set.of(), missing, expected.size() + " acknowledged messages, " + served.size() + " served, "
            + when);
        System.out.printf("all %d acknowledged messages served %s%n", expected.size(), when);
    }

    private Message next() {
        String key = "m-" + nextSequence.getAndIncrement() + ":";
        byte[] body = (key + "x".repeat(Math.max(0, bodyBytes - key.length()))).getBytes(StandardCharsets.UTF_8);
        return new Message(topic, TAG, body);
    }

    private static String keyOf(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        return text.substring(0, text.indexOf(':') + 1);
    }

    /** A sender running until stopped. */
    final class Load {
        private final AtomicBoolean isSending = new AtomicBoolean(true);
        private final AtomicInteger acknowledged = new AtomicInteger();
        private final Thread thread;

        private Load(DefaultMQProducer producer) {
            this.thread = new Thread(() -> run(producer), "lifecycle-load-" + topic);
            thread.setDaemon(true);
        }

        private void run(DefaultMQProducer producer) {
            while (isSending.get()) {
                Message message = next();
                try {
                    if (producer.send(message).getSendStatus() == SendStatus.SEND_OK) {
                        keys.add(keyOf(message.getBody()));
                        acknowledged.incrementAndGet();
                    }
                } catch (IllegalStateException e) {
                    return;   // the producer was shut down under us
                } catch (Exception e) {
                    pause();
                }
            }
        }

        /** Acknowledged so far by this load. */
        int acknowledged() {
            return acknowledged.get();
        }

        /** Stops sending and waits for the send in progress to end. */
        void stop() throws InterruptedException {
            isSending.set(false);
            thread.join();
        }

        private void pause() {
            try {
                Thread.sleep(RETRY_PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                isSending.set(false);
            }
        }
    }
}
