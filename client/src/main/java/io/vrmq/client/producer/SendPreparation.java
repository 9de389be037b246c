package io.vrmq.client.producer;

import io.vertx.core.buffer.Buffer;
import io.vrmq.client.Message;
import io.vrmq.client.ProducerOptions;
import io.vrmq.client.message.BatchBodyEncoder;
import io.vrmq.client.message.BodyCompression;
import io.vrmq.client.message.MessageIdGenerator;
import io.vrmq.client.message.MessageSysFlag;
import io.vrmq.remoting.message.MessageConst;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks a message and turns it into a {@link PreparedSend}, as the official producer does before its first attempt:
 * a UNIQ_KEY message id, WAIT=true unless set, bodies of at least compressOverBytes ZLIB-compressed (single messages
 * only), batches encoded in the batch body layout. Throws IllegalArgumentException for a message that can never be
 * sent. Thread-safe.
 */
public final class SendPreparation {
    /** RocketMQ's TopicValidator: letters, digits, %, |, _ and -, at most 127 characters. */
    private static final Pattern TOPIC_NAME = Pattern.compile("^[%|a-zA-Z0-9_-]+$");
    private static final int MAX_TOPIC_CHARS = 127;

    private final ProducerOptions options;
    private final MessageIdGenerator ids;

    public SendPreparation(ProducerOptions options, MessageIdGenerator ids) {
        this.options = options;
        this.ids = ids;
    }

    public PreparedSend single(Message message) {
        check(message);
        Map<String, String> properties = withIdAndWait(message.properties());
        byte[] body = message.body();
        int sysFlag = 0;
        if (body.length >= options.getCompressOverBytes()) {
            body = BodyCompression.deflate(body, options.getCompressLevel());
            sysFlag = MessageSysFlag.COMPRESSED_FLAG | MessageSysFlag.COMPRESSION_ZLIB;
        }
        return new PreparedSend(message.topic(), Buffer.buffer(body), message.flag(), properties, sysFlag, false,
            properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
    }

    /** The official batch rules: one topic, no delay, not a retry topic, one WAIT value. */
    public PreparedSend batch(List<Message> messages) {
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a batch needs at least one message");
        }
        Message first = messages.get(0);
        List<Map<String, String>> properties = new ArrayList<>();
        List<String> msgIds = new ArrayList<>();
        for (Message message : messages) {
            check(message);
            if (!message.topic().equals(first.topic())) {
                throw new IllegalArgumentException("a batch goes to one topic: " + first.topic() + " and "
                    + message.topic());
            }
            if (message.delayLevel() > 0) {
                throw new IllegalArgumentException("delayed messages cannot be batched");
            }
            if (!wait(message).equals(wait(first))) {
                throw new IllegalArgumentException("a batch has one WAIT value");
            }
            Map<String, String> own = withIdAndWait(message.properties());
            properties.add(own);
            msgIds.add(own.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
        }
        if (first.topic().startsWith(SendRequestHeader.RETRY_TOPIC_PREFIX)) {
            throw new IllegalArgumentException("retry topics cannot take batches");
        }
        Buffer body = BatchBodyEncoder.encode(messages, properties);
        if (body.length() > options.getMaxMessageBytes()) {
            throw new IllegalArgumentException("batch body " + body.length() + " bytes > maxMessageBytes "
                + options.getMaxMessageBytes());
        }
        Map<String, String> batchProperties = new LinkedHashMap<>();
        batchProperties.put(MessageConst.WAIT_STORE_MSG_OK, wait(first));
        batchProperties.put(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, ids.next());
        return new PreparedSend(first.topic(), body, 0, batchProperties, 0, true, String.join(",", msgIds));
    }

    private void check(Message message) {
        String topic = message.topic();
        if (topic.isBlank() || topic.length() > MAX_TOPIC_CHARS || !TOPIC_NAME.matcher(topic).matches()) {
            throw new IllegalArgumentException("topic name is not valid: '" + topic + "'");
        }
        if (message.body().length == 0) {
            throw new IllegalArgumentException("message body is empty");
        }
        if (message.body().length > options.getMaxMessageBytes()) {
            throw new IllegalArgumentException("message body " + message.body().length + " bytes > maxMessageBytes "
                + options.getMaxMessageBytes());
        }
    }

    private Map<String, String> withIdAndWait(Map<String, String> properties) {
        Map<String, String> copy = new LinkedHashMap<>(properties);
        copy.putIfAbsent(MessageConst.WAIT_STORE_MSG_OK, "true");
        copy.putIfAbsent(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, ids.next());
        return copy;
    }

    private static String wait(Message message) {
        return message.properties().getOrDefault(MessageConst.WAIT_STORE_MSG_OK, "true");
    }
}
