package io.vrmq.remoting.protocol;

/**
 * The remoting frame, as Apache RocketMQ lays it out. All integers big-endian.
 *
 * <pre>
 *  offset  size  field
 *   0       4    frameLength     bytes that follow this field: 4 + headerLength + bodyLength
 *   4       1    serializeType   0 = JSON header, 1 = ROCKETMQ binary header
 *   5       3    headerLength    unsigned 24-bit; shares one int with serializeType
 *   8       n    header          code, language, version, opaque, flag, remark, extFields
 *   8 + n   m    body            m = frameLength - 4 - n, may be 0
 * </pre>
 */
public final class Frame {
    public static final int FRAME_LENGTH_BYTES = 4;
    public static final int HEADER_WORD_BYTES = 4;
    /** Where the header starts, counted from the first byte after the frame length. */
    public static final int HEADER_OFFSET_IN_FRAME = HEADER_WORD_BYTES;
    /** The smallest frame length that can hold a header word and an empty header. */
    public static final int MIN_FRAME_LENGTH = HEADER_WORD_BYTES;
    /** The header length field is 24 bits wide. */
    public static final int MAX_HEADER_LENGTH_FIELD = 0xFFFFFF;

    private Frame() {
    }

    public static int headerWord(SerializeType type, int headerLength) {
        return (type.code() << 24) | (headerLength & MAX_HEADER_LENGTH_FIELD);
    }

    public static int serializeTypeCode(int headerWord) {
        return (headerWord >>> 24) & 0xFF;
    }

    public static int headerLength(int headerWord) {
        return headerWord & MAX_HEADER_LENGTH_FIELD;
    }
}
