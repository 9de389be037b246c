package io.vrmq.broker.processor;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SEND_BATCH_MESSAGE body into its messages, as the official client's MessageDecoder.encodeMessages lays
 * them out back to back:
 * <pre>
 *  size  field
 *   4    totalSize   bytes of this message, these 4 included
 *   4    magic       0 (unused)
 *   4    bodyCRC     0 (unused)
 *   4    flag
 *   4+n  body
 *   2+m  properties
 * </pre>
 * Stateless: any thread.
 */
final class BatchBodyDecoder {
    private static final int FIXED_BYTES = 4 + 4 + 4 + 4 + 4 + 2;

    record BatchMessage(int flag, byte[] body, String properties) {
    }

    private BatchBodyDecoder() {
    }

    static List<BatchMessage> decode(Buffer body) {
        if (body == null) {
            throw illegal("batch body is empty");
        }
        List<BatchMessage> messages = new ArrayList<>();
        int position = 0;
        while (position < body.length()) {
            int left = body.length() - position;
            if (left < FIXED_BYTES) {
                throw illegal("batch message at byte " + position + " is cut short: " + left + " bytes left");
            }
            int totalSize = body.getInt(position);
            int flag = body.getInt(position + 12);
            int bodyLength = body.getInt(position + 16);
            if (totalSize < FIXED_BYTES || totalSize > left || bodyLength < 0
                || bodyLength > totalSize - FIXED_BYTES) {
                throw illegal("batch message at byte " + position + " has totalSize " + totalSize + ", body "
                    + bodyLength + ", with " + left + " bytes left");
            }
            int bodyStart = position + 20;
            byte[] messageBody = body.getBytes(bodyStart, bodyStart + bodyLength);
            int propertiesLength = body.getUnsignedShort(bodyStart + bodyLength);
            int propertiesStart = bodyStart + bodyLength + 2;
            if (propertiesStart + propertiesLength > position + totalSize) {
                throw illegal("batch message at byte " + position + " has properties past its end");
            }
            String properties = new String(body.getBytes(propertiesStart, propertiesStart + propertiesLength),
                StandardCharsets.UTF_8);
            messages.add(new BatchMessage(flag, messageBody, properties));
            position += totalSize;
        }
        return messages;
    }

    private static RemotingCommandException illegal(String message) {
        return new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL, message);
    }
}
