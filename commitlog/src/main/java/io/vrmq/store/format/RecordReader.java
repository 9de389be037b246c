package io.vrmq.store.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads fields of a record in the {@link RecordLayout} format at a position of a buffer, with absolute gets (the
 * buffer's position is untouched, so many threads may read one shared buffer). The caller checked the record with
 * {@link RecordCheck} first.
 */
public final class RecordReader {
    private RecordReader() {
    }

    public static int totalSize(ByteBuffer buffer, int position) {
        return buffer.getInt(position + RecordLayout.TOTAL_SIZE_OFFSET);
    }

    public static int magic(ByteBuffer buffer, int position) {
        return buffer.getInt(position + RecordLayout.MAGIC_OFFSET);
    }

    public static int queueId(ByteBuffer buffer, int position) {
        return buffer.getInt(position + RecordLayout.QUEUE_ID_OFFSET);
    }

    public static long queueOffset(ByteBuffer buffer, int position) {
        return buffer.getLong(position + RecordLayout.QUEUE_OFFSET_OFFSET);
    }

    public static long physicalOffset(ByteBuffer buffer, int position) {
        return buffer.getLong(position + RecordLayout.PHYSICAL_OFFSET_OFFSET);
    }

    public static int sysFlag(ByteBuffer buffer, int position) {
        return buffer.getInt(position + RecordLayout.SYS_FLAG_OFFSET);
    }

    public static long storeTimestamp(ByteBuffer buffer, int position) {
        return buffer.getLong(position + RecordLayout.storeTimestampOffset(sysFlag(buffer, position)));
    }

    public static int bodyLength(ByteBuffer buffer, int position) {
        return buffer.getInt(position + RecordLayout.bodyLengthOffset(sysFlag(buffer, position)));
    }

    public static int bodyPosition(ByteBuffer buffer, int position) {
        return position + RecordLayout.bodyLengthOffset(sysFlag(buffer, position)) + 4;
    }

    /** Position of the topic length field. */
    public static int topicLengthPosition(ByteBuffer buffer, int position) {
        return bodyPosition(buffer, position) + bodyLength(buffer, position);
    }

    public static int topicLength(ByteBuffer buffer, int position) {
        int at = topicLengthPosition(buffer, position);
        return magic(buffer, position) == RecordLayout.MAGIC_V2
                ? Short.toUnsignedInt(buffer.getShort(at)) : Byte.toUnsignedInt(buffer.get(at));
    }

    public static String topic(ByteBuffer buffer, int position) {
        int at = topicLengthPosition(buffer, position) + RecordLayout.topicLengthBytes(magic(buffer, position));
        return string(buffer, at, topicLength(buffer, position));
    }

    /** The properties string, "" when none. */
    public static String properties(ByteBuffer buffer, int position) {
        int at = propertiesLengthPosition(buffer, position);
        return string(buffer, at + 2, Short.toUnsignedInt(buffer.getShort(at)));
    }

    static int propertiesLengthPosition(ByteBuffer buffer, int position) {
        return topicLengthPosition(buffer, position) + RecordLayout.topicLengthBytes(magic(buffer, position))
                + topicLength(buffer, position);
    }

    private static String string(ByteBuffer buffer, int at, int length) {
        byte[] bytes = new byte[length];
        buffer.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
