package io.vrmq.remoting.protocol;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * RocketMQ's compact binary header ("ROCKETMQ" serialize type).
 *
 * <pre>
 *  size  field
 *   2    code
 *   1    language code
 *   2    version
 *   4    opaque
 *   4    flag
 *   4+n  remark: length, UTF-8 bytes; length 0 reads as null
 *   4+m  extFields: total length, then per entry: 2-byte key length, key, 4-byte value length, value
 * </pre>
 * A zero-length string decodes as {@code null}, as in RocketMQ, so an empty ext value does not survive the trip.
 * Stateless: any thread.
 */
final class BinaryHeaderCodec {
    private static final int FIXED_BYTES = 2 + 1 + 2 + 4 + 4;

    private BinaryHeaderCodec() {
    }

    static void encode(RemotingCommand command, Buffer out) {
        out.appendShort((short) command.code());
        out.appendByte((byte) command.language().code());
        out.appendShort((short) command.version());
        out.appendInt(command.opaque());
        out.appendInt(command.flag());
        appendString32(out, command.remark());
        int extLengthAt = out.length();
        out.appendInt(0);
        for (Map.Entry<String, String> field : command.extFields().entrySet()) {
            if (field.getKey() == null || field.getValue() == null) {
                continue;
            }
            byte[] key = field.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = field.getValue().getBytes(StandardCharsets.UTF_8);
            out.appendShort((short) key.length).appendBytes(key);
            out.appendInt(value.length).appendBytes(value);
        }
        out.setInt(extLengthAt, out.length() - extLengthAt - 4);
    }

    /** Reads a header of {@code length} bytes at {@code start} in {@code frame}. */
    static RemotingCommand decode(Buffer frame, int start, int length, Buffer body) {
        Reader in = new Reader(frame, start, start + length);
        in.require(FIXED_BYTES, "fixed fields");
        int code = in.readShort();
        LanguageCode language = LanguageCode.ofCode(in.readByte());
        int version = in.readShort();
        int opaque = in.readInt();
        int flag = in.readInt();
        String remark = in.readString(in.readLength32("remark"));
        int extLength = in.readLength32("extFields");
        Map<String, String> extFields = readExtFields(in, extLength);
        return new RemotingCommand(code, language, version, opaque, flag, remark, extFields, body,
            SerializeType.ROCKETMQ);
    }

    private static Map<String, String> readExtFields(Reader in, int extLength) {
        Map<String, String> fields = new HashMap<>();
        int end = in.position + extLength;
        while (in.position < end) {
            String key = in.readString(in.readLength16("ext key"));
            String value = in.readString(in.readLength32("ext value"));
            if (key != null) {
                fields.put(key, value);
            }
        }
        return fields;
    }

    private static void appendString32(Buffer out, String text) {
        if (text == null || text.isEmpty()) {
            out.appendInt(0);
            return;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.appendInt(bytes.length).appendBytes(bytes);
    }

    /** A bounds-checked cursor: every length read from the wire is checked against what is left. */
    private static final class Reader {
        private final Buffer buffer;
        private final int end;
        private int position;

        Reader(Buffer buffer, int start, int end) {
            this.buffer = buffer;
            this.position = start;
            this.end = end;
        }

        void require(int bytes, String what) {
            if (bytes < 0 || bytes > end - position) {
                throw new MalformedFrameException("binary header: " + what + " needs " + bytes + " bytes, "
                    + (end - position) + " left");
            }
        }

        int readShort() {
            int value = buffer.getShort(position);
            position += 2;
            return value;
        }

        int readByte() {
            return buffer.getByte(position++);
        }

        int readInt() {
            int value = buffer.getInt(position);
            position += 4;
            return value;
        }

        int readLength32(String what) {
            require(4, what + " length");
            int length = readInt();
            require(length, what);
            return length;
        }

        int readLength16(String what) {
            require(2, what + " length");
            int length = buffer.getUnsignedShort(position);
            position += 2;
            require(length, what);
            return length;
        }

        String readString(int length) {
            if (length == 0) {
                return null;
            }
            String text = buffer.getString(position, position + length, "UTF-8");
            position += length;
            return text;
        }
    }
}
