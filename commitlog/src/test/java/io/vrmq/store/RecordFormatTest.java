package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vrmq.store.format.BodyCrc;
import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.OffsetMessageId;
import io.vrmq.store.format.RecordCheck;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordState;
import io.vrmq.store.format.RecordWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our CommitLog bytes read back with Apache RocketMQ's own MessageDecoder. */
class RecordFormatTest {
    private static final String PROPERTIES = "TAGS\u0001tagA\u0002KEYS\u0001k1 k2\u0002UNIQ_KEY\u0001ABC\u0002";

    @Test
    void officialDecoderReadsEveryFieldOfAnIpv4Record() throws Exception {
        InetSocketAddress born = new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 51234);
        InetSocketAddress store = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 10911);
        MessageExt decoded = writeAndDecode(born, store);

        assertEquals("TopicTest", decoded.getTopic());
        assertEquals(3, decoded.getQueueId());
        assertEquals(7, decoded.getFlag());
        assertEquals(42, decoded.getQueueOffset());
        assertEquals(1234, decoded.getCommitLogOffset());
        assertEquals(1_700_000_000_123L, decoded.getBornTimestamp());
        assertEquals(1_700_000_000_456L, decoded.getStoreTimestamp());
        assertEquals(born, decoded.getBornHost());
        assertEquals(store, decoded.getStoreHost());
        assertEquals(2, decoded.getReconsumeTimes());
        assertEquals(99, decoded.getPreparedTransactionOffset());
        assertEquals("hello body", new String(decoded.getBody(), StandardCharsets.UTF_8));
        assertEquals("tagA", decoded.getTags());
        assertEquals("k1 k2", decoded.getKeys());
        assertEquals("7F00000100002A9F00000000000004D2", decoded.getMsgId());
    }

    @Test
    void officialDecoderReadsIpv6BornAndStoreHosts() throws Exception {
        InetSocketAddress born = new InetSocketAddress(InetAddress.getByName("fe80::1"), 40000);
        InetSocketAddress store = new InetSocketAddress(InetAddress.getByName("2001:db8::7"), 10911);
        MessageExt decoded = writeAndDecode(born, store);

        assertEquals(born.getAddress(), ((InetSocketAddress) decoded.getBornHost()).getAddress());
        assertEquals(store, decoded.getStoreHost());
        assertEquals(1_700_000_000_456L, decoded.getStoreTimestamp());
        assertEquals("hello body", new String(decoded.getBody(), StandardCharsets.UTF_8));
        assertEquals(56, decoded.getMsgId().length());
        assertEquals(decoded.getMsgId(), OffsetMessageId.of(store.getAddress().getAddress(), 10911, 1234));
    }

    @Test
    void bodyCrcIsTheMaskedCrc32ThatTheDecoderChecks() {
        byte[] body = "crc me".getBytes(StandardCharsets.UTF_8);
        assertEquals(org.apache.rocketmq.common.UtilAll.crc32(body), BodyCrc.of(body));
    }

    @Test
    void aFlippedBodyByteIsACrcMismatchAndAFlippedSizeIsCorrupt() throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        int size = write(buffer, new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2));
        assertEquals(RecordState.VALID, RecordCheck.check(buffer, 0, 4096, 4096, 1234));
        int bodyAt = size - PROPERTIES.length() - 2 - "TopicTest".length() - 1 - 3;
        buffer.put(bodyAt, (byte) (buffer.get(bodyAt) ^ 1));
        assertEquals(RecordState.CRC_MISMATCH, RecordCheck.check(buffer, 0, 4096, 4096, 1234));
        buffer.putInt(0, size + 3);
        assertEquals(RecordState.CORRUPT, RecordCheck.check(buffer, 0, 4096, 4096, 1234));
        assertEquals(RecordState.END, RecordCheck.check(buffer, 1000, 3096, 4096, 1234 + 1000));
    }

    @Test
    void aSegmentThatCannotHoldTheNextRecordEndsWithABlankFillerAndTheRecordStartsTheNextFile(@TempDir Path dir)
            throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            long last = 0;
            int count = 0;
            while (store.getCommitLogMaxOffset() < TestStores.SEGMENT_BYTES) {
                AppendResult result = store.append(TestStores.sized("Roll", 0, 1000));
                last = result.commitLogOffset();
                count++;
            }
            assertEquals(TestStores.SEGMENT_BYTES, last, "the record that did not fit starts segment 2");
            store.flush();

            byte[] first = Files.readAllBytes(dir.resolve("commitlog").resolve("00000000000000000000"));
            ByteBuffer segment = ByteBuffer.wrap(first);
            List<MessageExt> decoded = MessageDecoder.decodes(segment.duplicate(), true);
            assertEquals(count - 1, decoded.size(), "every record of segment 1 decodes");
            int blankAt = 0;
            for (MessageExt message : decoded) {
                blankAt += message.getStoreSize();
            }
            assertEquals(RecordLayout.BLANK_MAGIC, segment.getInt(blankAt + 4));
            assertEquals(TestStores.SEGMENT_BYTES - blankAt, segment.getInt(blankAt));
            assertTrue(TestStores.SEGMENT_BYTES - blankAt >= RecordLayout.BLANK_BYTES);
            assertTrue(Files.exists(dir.resolve("commitlog").resolve("00000000000000065536")));
            MessageExt rolled = MessageDecoder.decode(store.lookMessageByOffset(last), true, false, false, false,
                    true);
            assertNotNull(rolled);
            assertEquals(count - 1, rolled.getQueueOffset());
        }
    }

    @Test
    void offsetMessageIdMatchesTheProtocolExample() {
        assertEquals("7F00000100002A9F00000000000004D2", OffsetMessageId.of(new byte[] {127, 0, 0, 1}, 10911, 1234));
    }

    private static MessageExt writeAndDecode(InetSocketAddress born, InetSocketAddress store) {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        int size = write(buffer, born, store);
        buffer.limit(size);
        MessageExt decoded = MessageDecoder.decode(buffer, true, false, false, false, true);
        assertNotNull(decoded, "MessageDecoder rejected our bytes (null means a decode exception or CRC error)");
        assertEquals(size, decoded.getStoreSize());
        return decoded;
    }

    private static int write(ByteBuffer buffer, InetSocketAddress born, InetSocketAddress store) {
        HostAddress bornHost = HostAddress.of(born);
        HostAddress storeHost = HostAddress.of(store);
        int sysFlag = (bornHost.isIpv6() ? RecordLayout.SYS_FLAG_BORN_HOST_V6 : 0)
                | (storeHost.isIpv6() ? RecordLayout.SYS_FLAG_STORE_HOST_V6 : 0);
        byte[] body = "hello body".getBytes(StandardCharsets.UTF_8);
        byte[] topic = "TopicTest".getBytes(StandardCharsets.UTF_8);
        byte[] properties = PROPERTIES.getBytes(StandardCharsets.UTF_8);
        EncodedMessage message = new EncodedMessage(topic, 3, 7, body, BodyCrc.of(body), properties, sysFlag,
                1_700_000_000_123L, bornHost, 2, 99,
                RecordLayout.recordBytes(sysFlag, body.length, topic.length, properties.length));
        return RecordWriter.write(buffer, 0, message, 42, 1234, 1_700_000_000_456L, storeHost);
    }
}
