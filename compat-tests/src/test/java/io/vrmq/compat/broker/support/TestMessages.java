package io.vrmq.compat.broker.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Messages with a unique body, a tag, a key and a user property, so that what comes back can be matched to what was
 * sent field by field; and unique topic and group names, so tests sharing a broker never see each other's data.
 */
public final class TestMessages {

    public static final String USER_PROPERTY = "compatIndex";
    private static final AtomicInteger NAME_COUNTER = new AtomicInteger();

    private TestMessages() {
    }

    /** "<prefix>_<pid>_<n>": valid as a RocketMQ topic or group name, unique in this test run. */
    public static String uniqueName(String prefix) {
        return prefix + "_" + ProcessHandle.current().pid() + "_" + NAME_COUNTER.incrementAndGet();
    }

    /** Message {@code index} of a series: body "<label>-<index>", key "<label>-key-<index>", property index. */
    public static Message message(String topic, String label, String tag, int index) {
        Message message = new Message(topic, tag, label + "-key-" + index,
            (label + "-" + index).getBytes(StandardCharsets.UTF_8));
        message.putUserProperty(USER_PROPERTY, Integer.toString(index));
        return message;
    }

    public static List<Message> series(String topic, String label, String tag, int count) {
        List<Message> messages = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            messages.add(message(topic, label, tag, index));
        }
        return messages;
    }

    /**
     * Like {@link #series}, with each body padded to {@code bodyBytes} (ASCII) so that a few hundred messages fill
     * several MiB; the body still starts with "<label>-<index>:" and the key is unchanged.
     */
    public static List<Message> paddedSeries(String topic, String label, String tag, int count, int bodyBytes) {
        List<Message> messages = series(topic, label, tag, count);
        for (Message message : messages) {
            StringBuilder body = new StringBuilder(body(message)).append(':');
            while (body.length() < bodyBytes) {
                body.append('.');
            }
            message.setBody(body.toString().getBytes(StandardCharsets.UTF_8));
        }
        return messages;
    }

    public static List<String> keys(List<? extends Message> messages) {
        return messages.stream().map(Message::getKeys).toList();
    }

    /** Sends each message in turn; every send must be SEND_OK. The results in the same order. */
    public static List<SendResult> sendEachOk(DefaultMQProducer producer, List<Message> messages) throws Exception {
        List<SendResult> results = new ArrayList<>();
        for (Message message : messages) {
            SendResult result = producer.send(message);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            results.add(result);
        }
        return results;
    }

    public static String body(Message message) {
        return new String(message.getBody(), StandardCharsets.UTF_8);
    }

    public static List<String> bodies(List<? extends Message> messages) {
        return messages.stream().map(TestMessages::body).toList();
    }

    /**
     * Each sent message came back exactly once with the same body, topic, tags, keys and user property.
     * {@code received} may be in any order.
     */
    public static void assertEachReceivedOnceIntact(List<Message> sent, List<MessageExt> received) {
        Map<String, Long> counts = received.stream()
            .collect(Collectors.groupingBy(TestMessages::body, Collectors.counting()));
        Map<String, Long> expectedCounts = sent.stream()
            .collect(Collectors.toMap(TestMessages::body, message -> 1L));
        assertEquals(expectedCounts, counts, "deliveries per body");
        Map<String, MessageExt> byBody = received.stream()
            .collect(Collectors.toMap(TestMessages::body, Function.identity()));
        for (Message expected : sent) {
            assertIntact(expected, byBody.get(body(expected)));
        }
    }

    public static void assertIntact(Message expected, MessageExt actual) {
        String what = "message " + body(expected) + " as received: " + actual;
        assertEquals(expected.getTopic(), actual.getTopic(), what);
        assertEquals(expected.getTags(), actual.getTags(), what);
        assertEquals(expected.getKeys(), actual.getKeys(), what);
        assertEquals(expected.getUserProperty(USER_PROPERTY), actual.getUserProperty(USER_PROPERTY), what);
        assertEquals(body(expected), body(actual), what);
    }
}
