package io.vrmq.broker.recall;

import io.vrmq.broker.topic.TopicNames;
import io.vrmq.remoting.message.MessageConst;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * RocketMQ 5.x's recall handle (RecallMessageHandle, version 1): what a send of a timer message answers so that the
 * producer can cancel it before it is due. The text is the URL-safe Base64 (with padding) of
 * {@code "v1 <topic> <brokerName> <timestamp> <messageId>"}, fields joined by one space; timestamp is the message's
 * TIMER_OUT_MS + 1 (its slot, plus 1 so that rounding it down again lands in the same slot) and messageId its UNIQ_KEY.
 * Nothing is checked at build time, as in RocketMQ; {@link #decode} takes the first five space-separated fields and
 * ignores any more. Immutable; any thread.
 *
 * @param timestampText as written in the handle: it is parsed (and refused when it does not parse) by the recall
 */
public record RecallHandle(String topic, String brokerName, String timestampText, String messageId) {
    static final String VERSION_1 = "v1";
    static final String INVALID = "recall handle is invalid";
    private static final String SEPARATOR = " ";
    private static final int FIELD_COUNT = 5;

    /** The handle text for these fields. */
    public static String build(String topic, String brokerName, String timestampText, String messageId) {
        String raw = String.join(SEPARATOR, VERSION_1, topic, brokerName, timestampText, messageId);
        return Base64.getUrlEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The handle a send reply carries for a message stored to the timer (TIMER_OUT_MS and REAL_TOPIC set by the
     * timer routing, the real topic no retry topic), or null for any other message. Batches and send-backs never
     * get one (their processors do not ask).
     */
    public static String forStoredSend(Map<String, String> storedProperties, String brokerName) {
        String timerOutMs = storedProperties.get(MessageConst.TIMER_OUT_MS);
        String realTopic = storedProperties.get(MessageConst.REAL_TOPIC);
        if (timerOutMs == null || realTopic == null || TopicNames.isRetryTopic(realTopic)) {
            return null;
        }
        long timestamp;
        try {
            timestamp = Long.parseLong(timerOutMs) + 1;
        } catch (NumberFormatException e) {
            return null;
        }
        return build(realTopic, brokerName, Long.toString(timestamp),
            String.valueOf(storedProperties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX)));
    }

    /** @throws IllegalArgumentException "recall handle is invalid" (RocketMQ's words) for anything but a v1 handle */
    public static RecallHandle decode(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException(INVALID);
        }
        String raw;
        try {
            raw = new String(Base64.getUrlDecoder().decode(text.getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(INVALID, e);
        }
        String[] fields = raw.split(SEPARATOR);
        if (!VERSION_1.equals(fields[0]) || fields.length < FIELD_COUNT) {
            throw new IllegalArgumentException(INVALID);
        }
        return new RecallHandle(fields[1], fields[2], fields[3], fields[4]);
    }

    /** The timestamp, or -1 when it does not parse (which no recall accepts). */
    public long timestampMs() {
        try {
            return Long.parseLong(timestampText);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
