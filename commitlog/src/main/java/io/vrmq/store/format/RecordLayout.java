package io.vrmq.store.format;

/**
 * The CommitLog record, byte-compatible with Apache RocketMQ 4.x/5.x (a pull ships these bytes unchanged and the
 * official {@code MessageDecoder} reads them). Big-endian. Offsets below are for IPv4 hosts; each host that the
 * sys flag marks IPv6 takes 20 bytes instead of 8 and shifts every later field by 12.
 * <pre>
 *  offset  size  field
 *   0       4    TOTALSIZE          bytes of the whole record, this field included
 *   4       4    MAGIC              MAGIC_V1, MAGIC_V2 (2-byte topic length) or BLANK_MAGIC (segment filler)
 *   8       4    BODYCRC            CRC32(body) &amp; 0x7FFFFFFF
 *  12       4    QUEUEID
 *  16       4    FLAG
 *  20       8    QUEUEOFFSET        entry number in the topic-queue's ConsumeQueue
 *  28       8    PHYSICALOFFSET     commitLogOffset of this record
 *  36       4    SYSFLAG            bit 4 = born host IPv6, bit 5 = store host IPv6
 *  40       8    BORNTIMESTAMP
 *  48       8|20 BORNHOST           IPv4 (4) or IPv6 (16) address, then int32 port
 *  b+0      8    STORETIMESTAMP     b = 48 + born host bytes
 *  b+8      8|20 STOREHOST
 *  s+0      4    RECONSUMETIMES     s = b + 8 + store host bytes
 *  s+4      8    PREPARED TX OFFSET
 *  s+12     4    BODYLENGTH = n
 *  s+16     n    BODY
 *  t        1|2  TOPICLENGTH = m    t = s + 16 + n; 1 byte with MAGIC_V1, 2 bytes with MAGIC_V2
 *  t+1|2    m    TOPIC              UTF-8
 *  p        2    PROPERTIESLENGTH   p = t + 1|2 + m; int16, so at most 32767 bytes
 *  p+2      k    PROPERTIES         name\u0001value\u0002 ..., UTF-8
 * </pre>
 * A blank filler is just TOTALSIZE (the bytes left in the segment) and BLANK_MAGIC; the next record starts the
 * next segment. A writer always leaves room for it: a record goes to the next segment when record + 8 bytes
 * does not fit in the rest of the current one.
 */
public final class RecordLayout {
    public static final int MAGIC_V1 = 0xDAA320A7;
    public static final int MAGIC_V2 = 0xDAA320AB;
    public static final int BLANK_MAGIC = 0xCBD43194;

    public static final int TOTAL_SIZE_OFFSET = 0;
    public static final int MAGIC_OFFSET = TOTAL_SIZE_OFFSET + 4;
    public static final int BODY_CRC_OFFSET = MAGIC_OFFSET + 4;
    public static final int QUEUE_ID_OFFSET = BODY_CRC_OFFSET + 4;
    public static final int FLAG_OFFSET = QUEUE_ID_OFFSET + 4;
    public static final int QUEUE_OFFSET_OFFSET = FLAG_OFFSET + 4;
    public static final int PHYSICAL_OFFSET_OFFSET = QUEUE_OFFSET_OFFSET + 8;
    public static final int SYS_FLAG_OFFSET = PHYSICAL_OFFSET_OFFSET + 8;
    public static final int BORN_TIMESTAMP_OFFSET = SYS_FLAG_OFFSET + 4;
    public static final int BORN_HOST_OFFSET = BORN_TIMESTAMP_OFFSET + 8;

    /** Bytes of a blank filler's fields; a segment always keeps this much room for one. */
    public static final int BLANK_BYTES = 8;
    /** The smallest record: IPv4 hosts, empty body, 1-byte topic, no properties. */
    public static final int MIN_RECORD_BYTES = recordBytes(0, 0, 1, 0);

    public static final int SYS_FLAG_BORN_HOST_V6 = 1 << 4;
    public static final int SYS_FLAG_STORE_HOST_V6 = 1 << 5;

    /** Topics longer than this need MAGIC_V2 and its 2-byte topic length. */
    public static final int MAX_V1_TOPIC_BYTES = 127;
    public static final int MAX_TOPIC_BYTES = Short.MAX_VALUE;
    public static final int MAX_PROPERTIES_BYTES = Short.MAX_VALUE;

    private static final int IPV4_HOST_BYTES = 8;
    private static final int IPV6_HOST_BYTES = 20;

    private RecordLayout() {
    }

    public static int bornHostBytes(int sysFlag) {
        return (sysFlag & SYS_FLAG_BORN_HOST_V6) == 0 ? IPV4_HOST_BYTES : IPV6_HOST_BYTES;
    }

    public static int storeHostBytes(int sysFlag) {
        return (sysFlag & SYS_FLAG_STORE_HOST_V6) == 0 ? IPV4_HOST_BYTES : IPV6_HOST_BYTES;
    }

    public static int storeTimestampOffset(int sysFlag) {
        return BORN_HOST_OFFSET + bornHostBytes(sysFlag);
    }

    public static int storeHostOffset(int sysFlag) {
        return storeTimestampOffset(sysFlag) + 8;
    }

    public static int reconsumeTimesOffset(int sysFlag) {
        return storeHostOffset(sysFlag) + storeHostBytes(sysFlag);
    }

    public static int preparedTransactionOffsetOffset(int sysFlag) {
        return reconsumeTimesOffset(sysFlag) + 4;
    }

    public static int bodyLengthOffset(int sysFlag) {
        return preparedTransactionOffsetOffset(sysFlag) + 8;
    }

    public static int topicLengthBytes(int magic) {
        return magic == MAGIC_V2 ? 2 : 1;
    }

    /** Total record bytes for these part sizes. */
    public static int recordBytes(int sysFlag, int bodyBytes, int topicBytes, int propertiesBytes) {
        int magic = topicBytes > MAX_V1_TOPIC_BYTES ? MAGIC_V2 : MAGIC_V1;
        return bodyLengthOffset(sysFlag) + 4 + bodyBytes + topicLengthBytes(magic) + topicBytes + 2 + propertiesBytes;
    }

    public static int magicFor(int topicBytes) {
        return topicBytes > MAX_V1_TOPIC_BYTES ? MAGIC_V2 : MAGIC_V1;
    }
}
