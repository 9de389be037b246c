package io.vrmq.client.message;

import io.vertx.core.buffer.Buffer;
import io.vrmq.client.Message;
import io.vrmq.remoting.message.MessageProperties;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The SEND_BATCH_MESSAGE (320) body, the official MessageDecoder.encodeMessages layout, messages back to back:
 * <pre>
 *  size  field
 *   4    totalSize   bytes of this message, these 4 included
 *   4    magic       0
 *   4    bodyCrc     0
 *   4    flag
 *   4+n  body
 *   2+m  properties  each message's own (UNIQ_KEY, KEYS, TAGS, WAIT, user properties)
 * </pre>
 * Stateless: any thread.
 */
public final class BatchBodyEncoder {
    static final int FIXED_BYTES = 4 + 4 + 4 + 4 + 4 + 2;

    private BatchBodyEncoder() {
    }

    /** @param properties the properties each message is sent with, in the order of {@code messages} */
    public static Buffer encode(List<Message> messages, List<Map<String, String>> properties) {
        Buffer body = Buffer.buffer();
        for (int index = 0; index < messages.size(); index++) {
            Message message = messages.get(index);
            byte[] propertyBytes = MessageProperties.format(properties.get(index)).getBytes(StandardCharsets.UTF_8);
            if (propertyBytes.length > Short.MAX_VALUE) {
                throw new IllegalArgumentException("properties of batch message " + index + " are "
                    + propertyBytes.length + " bytes > " + Short.MAX_VALUE);
            }
            int totalSize = FIXED_BYTES + message.body().length + propertyBytes.length;
            body.appendInt(totalSize).appendInt(0).appendInt(0).appendInt(message.flag())
                .appendInt(message.body().length).appendBytes(message.body())
                .appendShort((short) propertyBytes.length).appendBytes(propertyBytes);
        }
        return body;
    }
}
