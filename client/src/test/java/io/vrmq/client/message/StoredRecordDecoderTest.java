package io.vrmq.client.message;

import io.vertx.core.buffer.Buffer;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StoredRecordDecoderTest {
    private static final int MAX_BODY_BYTES = 1 << 20;

    @Test
    void decodesEveryFieldOfAnIpv4Record() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageConst.TAGS, "TagA");
        properties.put(MessageConst.KEYS, "k1 k2");
        properties.put(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "UNIQ");
        Buffer record = TestRecords.record("TopicT", 3, 17L, 1234L, 0, "hello".getBytes(StandardCharsets.UTF_8),
            MessageProperties.format(properties), 2);

        ReceivedMessage message = StoredRecordDecoder.decode(record, MAX_BODY_BYTES);

        assertEquals("TopicT", message.topic());
        assertEquals(3, message.queueId());
        assertEquals(17L, message.queueOffset());
        assertEquals(1234L, message.commitLogOffset());
        assertEquals(2, message.reconsumeTimes());
        assertEquals(TestRecords.FLAG, message.flag());
        assertEquals(TestRecords.BORN_TIMESTAMP, message.bornTimestamp());
        assertEquals(TestRecords.STORE_TIMESTAMP, message.storeTimestamp());
        assertEquals("hello", new String(message.body(), StandardCharsets.UTF_8));
        assertEquals("TagA", message.tags());
        assertEquals("k1 k2", message.keys());
        assertEquals("UNIQ", message.msgId());
        assertEquals(10911, message.storeHost().getPort());
        assertEquals(record.length(), message.storeSizeBytes());
    }

    @Test
    void offsetMsgIdIsStoreHostPortAndCommitLogOffsetInHex() {
        Buffer record = TestRecords.record("T", 0, 0L, 1234L, 0, new byte[] {1}, "", 0);

        ReceivedMessage message = StoredRecordDecoder.decode(record, MAX_BODY_BYTES);

        assertEquals("7F00000100002A9F00000000000004D2", message.offsetMsgId());
        assertEquals(message.offsetMsgId(), message.msgId(), "without UNIQ_KEY the offset id is the message id");
    }

    @Test
    void inflatesAZlibCompressedBody() {
        byte[] body = "x".repeat(10_000).getBytes(StandardCharsets.UTF_8);
        byte[] compressed = BodyCompression.deflate(body, 5);
        int sysFlag = MessageSysFlag.COMPRESSED_FLAG | MessageSysFlag.COMPRESSION_ZLIB;
        Buffer record = TestRecords.record("T", 0, 0L, 0L, sysFlag, compressed, "", 0);

        ReceivedMessage message = StoredRecordDecoder.decode(record, MAX_BODY_BYTES);

        assertArrayEquals(body, message.body());
    }

    @Test
    void decodesRecordsBackToBack() {
        Buffer body = Buffer.buffer()
            .appendBuffer(TestRecords.record("T", 0, 5L, 100L, 0, new byte[] {1}, "", 0))
            .appendBuffer(TestRecords.record("T", 0, 6L, 300L, 0, new byte[] {2, 3}, "", 0));

        List<ReceivedMessage> messages = StoredRecordDecoder.decodeAll(body, MAX_BODY_BYTES);

        assertEquals(List.of(5L, 6L), messages.stream().map(ReceivedMessage::queueOffset).toList());
    }

    @Test
    void aRecordCutAtAnyByteIsRefused() {
        Buffer record = TestRecords.record("T", 0, 5L, 100L, 0, new byte[] {1, 2, 3}, "A\u0001b\u0002", 0);
        for (int cut = 1; cut < record.length(); cut++) {
            Buffer truncated = record.getBuffer(0, cut);
            assertThrows(IllegalArgumentException.class, () -> StoredRecordDecoder.decodeAll(truncated,
                MAX_BODY_BYTES), "cut at " + cut);
        }
    }

    @Test
    void aBodyInflatingPastTheLimitIsRefused() {
        byte[] compressed = BodyCompression.deflate(new byte[100_000], 5);
        int sysFlag = MessageSysFlag.COMPRESSED_FLAG | MessageSysFlag.COMPRESSION_ZLIB;
        Buffer record = TestRecords.record("T", 0, 0L, 0L, sysFlag, compressed, "", 0);

        assertThrows(IllegalArgumentException.class, () -> StoredRecordDecoder.decode(record, 50_000));
    }
}
