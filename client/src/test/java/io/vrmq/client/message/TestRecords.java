package io.vrmq.client.message;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;

/**
 * Stored records built field by field, the way the broker writes them (IPv4 hosts, magic V1); the consumer tests use
 * them as CONSUME_MESSAGE_DIRECTLY bodies too.
 */
public final class TestRecords {
    static final int FLAG = 7;
    static final long BORN_TIMESTAMP = 1_700_000_000_000L;
    static final long STORE_TIMESTAMP = 1_700_000_000_500L;

    private TestRecords() {
    }

    public static Buffer record(String topic, int queueId, long queueOffset, long commitLogOffset, int sysFlag,
                                byte[] body, String properties, int reconsumeTimes) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        byte[] propertyBytes = properties.getBytes(StandardCharsets.UTF_8);
        int totalSize = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + 8 + 8 + 8 + 4 + 8 + 4 + body.length + 1
            + topicBytes.length + 2 + propertyBytes.length;
        return Buffer.buffer()
            .appendInt(totalSize)
            .appendInt(StoredRecordDecoder.MAGIC_V1)
            .appendInt(0)
            .appendInt(queueId)
            .appendInt(FLAG)
            .appendLong(queueOffset)
            .appendLong(commitLogOffset)
            .appendInt(sysFlag)
            .appendLong(BORN_TIMESTAMP)
            .appendBytes(new byte[] {127, 0, 0, 1}).appendInt(54321)
            .appendLong(STORE_TIMESTAMP)
            .appendBytes(new byte[] {127, 0, 0, 1}).appendInt(10911)
            .appendInt(reconsumeTimes)
            .appendLong(0L)
            .appendInt(body.length).appendBytes(body)
            .appendByte((byte) topicBytes.length).appendBytes(topicBytes)
            .appendShort((short) propertyBytes.length).appendBytes(propertyBytes);
    }
}
