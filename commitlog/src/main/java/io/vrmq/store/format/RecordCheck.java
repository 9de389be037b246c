package io.vrmq.store.format;

import java.nio.ByteBuffer;

/**
 * Decides whether the bytes at a position are a whole, intact record. Beyond RocketMQ's size/magic/CRC checks it
 * requires PHYSICALOFFSET to equal the record's own commitLogOffset and the part lengths to add up to TOTALSIZE:
 * together they make a false positive when scanning garbage for the next record practically impossible. Stateless.
 */
public final class RecordCheck {
    private RecordCheck() {
    }

    /**
     * @param position        where the record would start in {@code segment}
     * @param availableBytes  readable bytes from {@code position} (to the segment end or the log's end)
     * @param segmentBytes    the segment's size; a blank filler must reach exactly its end
     * @param physicalOffset  the commitLogOffset of {@code position}
     */
    public static RecordState check(ByteBuffer segment, int position, int availableBytes, int segmentBytes,
                                    long physicalOffset) {
        if (availableBytes < RecordLayout.BLANK_BYTES) {
            return availableBytes == 0 || allZero(segment, position, availableBytes)
                    ? RecordState.END : RecordState.CORRUPT;
        }
        int totalSize = RecordReader.totalSize(segment, position);
        int magic = RecordReader.magic(segment, position);
        if (totalSize == 0 && magic == 0) {
            return RecordState.END;
        }
        if (magic == RecordLayout.BLANK_MAGIC) {
            return position + totalSize == segmentBytes ? RecordState.BLANK : RecordState.CORRUPT;
        }
        if (!hasConsistentHeader(segment, position, availableBytes, physicalOffset)) {
            return RecordState.CORRUPT;
        }
        int bodyPosition = RecordReader.bodyPosition(segment, position);
        int bodyLength = RecordReader.bodyLength(segment, position);
        int storedCrc = segment.getInt(position + RecordLayout.BODY_CRC_OFFSET);
        boolean intact = BodyCrc.of(segment, bodyPosition, bodyLength) == storedCrc;
        return intact ? RecordState.VALID : RecordState.CRC_MISMATCH;
    }

    /** Cheap test used when scanning for the next record: magic and physical offset only. */
    public static boolean mayStartRecord(ByteBuffer segment, int position, long physicalOffset) {
        int magic = segment.getInt(position + RecordLayout.MAGIC_OFFSET);
        return (magic == RecordLayout.MAGIC_V1 || magic == RecordLayout.MAGIC_V2)
                && segment.getLong(position + RecordLayout.PHYSICAL_OFFSET_OFFSET) == physicalOffset;
    }

    private static boolean hasConsistentHeader(ByteBuffer segment, int position, int availableBytes,
                                               long physicalOffset) {
        int totalSize = RecordReader.totalSize(segment, position);
        int magic = RecordReader.magic(segment, position);
        if (magic != RecordLayout.MAGIC_V1 && magic != RecordLayout.MAGIC_V2) {
            return false;
        }
        if (totalSize < RecordLayout.MIN_RECORD_BYTES || totalSize > availableBytes) {
            return false;
        }
        if (RecordReader.physicalOffset(segment, position) != physicalOffset) {
            return false;
        }
        int sysFlag = RecordReader.sysFlag(segment, position);
        int bodyLengthAt = RecordLayout.bodyLengthOffset(sysFlag);
        if (bodyLengthAt + 4 > totalSize) {
            return false;
        }
        long bodyLength = segment.getInt(position + bodyLengthAt);
        long topicLengthAt = bodyLengthAt + 4 + bodyLength;
        int topicLengthBytes = RecordLayout.topicLengthBytes(magic);
        if (bodyLength < 0 || topicLengthAt + topicLengthBytes > totalSize) {
            return false;
        }
        int topicLength = RecordReader.topicLength(segment, position);
        long propertiesLengthAt = topicLengthAt + topicLengthBytes + topicLength;
        if (topicLength == 0 || propertiesLengthAt + 2 > totalSize) {
            return false;
        }
        int propertiesLength = segment.getShort(position + (int) propertiesLengthAt);
        return propertiesLength >= 0 && propertiesLengthAt + 2 + propertiesLength == totalSize;
    }

    private static boolean allZero(ByteBuffer segment, int position, int length) {
        for (int i = 0; i < length; i++) {
            if (segment.get(position + i) != 0) {
                return false;
            }
        }
        return true;
    }
}
