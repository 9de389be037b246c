package io.vrmq.client.message;

import io.vertx.core.buffer.Buffer;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.remoting.message.MessageProperties;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Decodes a PULL_MESSAGE body: the broker's stored commit-log records back to back (PROTOCOL.md section 5). Hosts
 * are 8 bytes (IPv4 + port) unless the sysFlag's v6 bit for that host is set (16 + 4):
 * <pre>
 *  offset   size     field
 *   0        4       totalSize           bytes of the record, these 4 included
 *   4        4       magic               V1 0xDAA320A7 (1-byte topic length) or V2 0xDAA320AB (2-byte)
 *   8        4       bodyCrc
 *  12        4       queueId
 *  16        4       flag
 *  20        8       queueOffset
 *  28        8       commitLogOffset     (PHYSICALOFFSET)
 *  36        4       sysFlag
 *  40        8       bornTimestamp
 *  48        8|20    bornHost
 *  +         8       storeTimestamp
 *  +         8|20    storeHost
 *  +         4       reconsumeTimes
 *  +         8       preparedTransactionOffset
 *  +         4+n     body                compressed when sysFlag bit 0 is set (inflated here)
 *  +         1|2+t   topic
 *  +         2+p     properties
 * </pre>
 * Stateless: any thread.
 */
public final class StoredRecordDecoder {
    public static final int MAGIC_V1 = 0xDAA320A7;
    public static final int MAGIC_V2 = 0xDAA320AB;
    static final int TOTAL_SIZE_OFFSET = 0;
    static final int MAGIC_OFFSET = TOTAL_SIZE_OFFSET + 4;
    static final int BODY_CRC_OFFSET = MAGIC_OFFSET + 4;
    static final int QUEUE_ID_OFFSET = BODY_CRC_OFFSET + 4;
    static final int FLAG_OFFSET = QUEUE_ID_OFFSET + 4;
    static final int QUEUE_OFFSET_OFFSET = FLAG_OFFSET + 4;
    static final int COMMIT_LOG_OFFSET_OFFSET = QUEUE_OFFSET_OFFSET + 8;
    static final int SYS_FLAG_OFFSET = COMMIT_LOG_OFFSET_OFFSET + 8;
    static final int BORN_TIMESTAMP_OFFSET = SYS_FLAG_OFFSET + 4;
    static final int BORN_HOST_OFFSET = BORN_TIMESTAMP_OFFSET + 8;
    /** The smallest record: IPv4 hosts, empty body, 1-byte topic length, empty properties. */
    static final int MIN_RECORD_BYTES = BORN_HOST_OFFSET + 8 + 8 + 8 + 4 + 8 + 4 + 1 + 2;
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private StoredRecordDecoder() {
    }

    /**
     * @param maxBodyBytes largest body a compressed one may inflate to
     * @throws IllegalArgumentException naming the byte position when a record is cut short or has a bad magic
     */
    public static List<ReceivedMessage> decodeAll(Buffer records, int maxBodyBytes) {
        List<ReceivedMessage> messages = new ArrayList<>();
        int position = 0;
        while (position < records.length()) {
            int left = records.length() - position;
            int totalSize = left >= 4 ? records.getInt(position) : -1;
            if (totalSize < MIN_RECORD_BYTES || totalSize > left) {
                throw new IllegalArgumentException("record at byte " + position + " has totalSize " + totalSize
                    + " with " + left + " bytes left");
            }
            messages.add(decode(records.getBuffer(position, position + totalSize), maxBodyBytes));
            position += totalSize;
        }
        return messages;
    }

    /** One whole record. */
    public static ReceivedMessage decode(Buffer record, int maxBodyBytes) {
        int magic = record.getInt(MAGIC_OFFSET);
        if (magic != MAGIC_V1 && magic != MAGIC_V2) {
            throw new IllegalArgumentException("record magic " + Integer.toHexString(magic) + " is not a message");
        }
        int sysFlag = record.getInt(SYS_FLAG_OFFSET);
        int bornHostBytes = (sysFlag & MessageSysFlag.BORN_HOST_V6_FLAG) != 0 ? 20 : 8;
        int storeHostBytes = (sysFlag & MessageSysFlag.STORE_HOST_V6_FLAG) != 0 ? 20 : 8;
        int storeTimestampOffset = BORN_HOST_OFFSET + bornHostBytes;
        int storeHostOffset = storeTimestampOffset + 8;
        int reconsumeTimesOffset = storeHostOffset + storeHostBytes;
        int preparedOffset = reconsumeTimesOffset + 4;
        int bodyLengthOffset = preparedOffset + 8;
        int bodyLength = record.getInt(bodyLengthOffset);
        int topicLengthOffset = bodyLengthOffset + 4 + bodyLength;
        int topicLengthBytes = magic == MAGIC_V2 ? 2 : 1;
        int topicLength = magic == MAGIC_V2 ? record.getUnsignedShort(topicLengthOffset)
            : record.getUnsignedByte(topicLengthOffset);
        int propertiesLengthOffset = topicLengthOffset + topicLengthBytes + topicLength;
        int propertiesLength = record.getUnsignedShort(propertiesLengthOffset);
        if (bodyLength < 0 || propertiesLengthOffset + 2 + propertiesLength > record.length()) {
            throw new IllegalArgumentException("record of " + record.length() + " bytes has body " + bodyLength
                + ", topic " + topicLength + " and properties " + propertiesLength + " bytes: past its end");
        }
        byte[] body = record.getBytes(bodyLengthOffset + 4, bodyLengthOffset + 4 + bodyLength);
        if (MessageSysFlag.isCompressed(sysFlag)) {
            body = inflate(body, sysFlag, maxBodyBytes);
        }
        String topic = record.getString(topicLengthOffset + topicLengthBytes,
            topicLengthOffset + topicLengthBytes + topicLength, StandardCharsets.UTF_8.name());
        String properties = record.getString(propertiesLengthOffset + 2,
            propertiesLengthOffset + 2 + propertiesLength, StandardCharsets.UTF_8.name());
        long commitLogOffset = record.getLong(COMMIT_LOG_OFFSET_OFFSET);
        InetSocketAddress storeHost = host(record, storeHostOffset, storeHostBytes);
        return new ReceivedMessage(topic, record.getInt(QUEUE_ID_OFFSET), record.getLong(QUEUE_OFFSET_OFFSET),
            commitLogOffset, record.getInt(FLAG_OFFSET), sysFlag, body, MessageProperties.parse(properties),
            record.getLong(BORN_TIMESTAMP_OFFSET), host(record, BORN_HOST_OFFSET, bornHostBytes),
            record.getLong(storeTimestampOffset), storeHost, record.getInt(reconsumeTimesOffset),
            record.getLong(preparedOffset), record.length(), record.getInt(BODY_CRC_OFFSET),
            offsetMsgId(record.getBytes(storeHostOffset, storeHostOffset + storeHostBytes), commitLogOffset), null);
    }

    /** Store host (ip + int32 port) followed by the commit-log offset, in uppercase hex: 32 chars for IPv4. */
    public static String offsetMsgId(byte[] storeHostAndPort, long commitLogOffset) {
        ByteBuffer id = ByteBuffer.allocate(storeHostAndPort.length + 8);
        id.put(storeHostAndPort).putLong(commitLogOffset);
        return HEX.formatHex(id.array());
    }

    private static byte[] inflate(byte[] body, int sysFlag, int maxBodyBytes) {
        int type = MessageSysFlag.compressionType(sysFlag);
        if (type != 0 && type != 3) {
            throw new IllegalArgumentException("compression type " + type + " (1 LZ4, 2 ZSTD) is not supported");
        }
        return BodyCompression.inflate(body, maxBodyBytes);
    }

    private static InetSocketAddress host(Buffer record, int offset, int bytes) {
        byte[] ip = record.getBytes(offset, offset + bytes - 4);
        int port = record.getInt(offset + bytes - 4);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(ip), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host of " + ip.length + " bytes", e);
        }
    }
}
