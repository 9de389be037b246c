package io.vrmq.broker.pop;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordReader;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * RocketMQ's popResponseReturnActualRetryTopic=false: a message popped from a POP retry topic is handed out under its
 * original topic, with its own receipt in POP_CK (the client keeps a POP_CK it finds, so it acks the retry topic).
 * The stored record is copied with the new topic and properties; every other field, the body and its CRC stay as
 * stored (a compressed body stays compressed, the client inflates it). Layout: {@link RecordLayout}. Stateless;
 * reads the record, so call it where the record may be read (a store reader thread).
 */
final class RetryRecordRewriter {
    private RetryRecordRewriter() {
    }

    static ByteBuffer rewrite(ByteBuffer record, String originalTopic, String popCk) {
        int bodyEnd = RecordReader.topicLengthPosition(record, 0);
        Map<String, String> properties = MessageProperties.parse(RecordReader.properties(record, 0));
        properties.putIfAbsent(MessageConst.POP_CK, popCk);
        byte[] topic = originalTopic.getBytes(StandardCharsets.UTF_8);
        byte[] props = MessageProperties.format(properties).getBytes(StandardCharsets.UTF_8);
        if (props.length > RecordLayout.MAX_PROPERTIES_BYTES) {
            // Too long to add the receipt: hand it out as stored (the client then builds the receipt itself).
            return record.duplicate();
        }
        int magic = RecordLayout.magicFor(topic.length);
        int topicLengthBytes = RecordLayout.topicLengthBytes(magic);
        int totalSize = bodyEnd + topicLengthBytes + topic.length + 2 + props.length;
        ByteBuffer copy = ByteBuffer.allocate(totalSize);
        copy.put(record.duplicate().position(0).limit(bodyEnd));
        copy.putInt(RecordLayout.TOTAL_SIZE_OFFSET, totalSize);
        copy.putInt(RecordLayout.MAGIC_OFFSET, magic);
        if (topicLengthBytes == 2) {
            copy.putShort((short) topic.length);
        } else {
            copy.put((byte) topic.length);
        }
        copy.put(topic).putShort((short) props.length).put(props);
        return copy.flip();
    }
}
