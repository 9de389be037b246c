package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AppendAndReadTest {

    @Test
    void appendsGetConsecutiveQueueOffsetsPerQueueAndReadsReturnTheStoredBytes(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            for (int i = 0; i < 10; i++) {
                AppendResult a = store.append(TestStores.message("TopicA", 0, i, "red"));
                AppendResult b = store.append(TestStores.message("TopicA", 1, i, "blue"));
                assertEquals(i, a.queueOffset());
                assertEquals(i, b.queueOffset());
                assertEquals(FlushStatus.FLUSH_OK, a.durability().get());
            }
            awaitDispatched(store, "TopicA", 0, 10);
            GetMessageResult read = store.getMessages("TopicA", 0, 3, 4, 1 << 20, TagFilter.ALL);
            assertEquals(GetMessageStatus.FOUND, read.status());
            assertEquals(4, read.messages().size());
            assertEquals(7, read.nextBeginOffset());
            assertEquals(0, read.minOffset());
            assertEquals(10, read.maxOffset());
            for (int i = 0; i < 4; i++) {
                FoundMessage found = read.messages().get(i);
                MessageExt decoded = MessageDecoder.decode(found.record().duplicate(), true, false, false, false, true);
                assertEquals(3 + i, decoded.getQueueOffset());
                assertEquals("TopicA/0/" + (3 + i) + "/" + "x".repeat(3 + i), new String(decoded.getBody()));
                assertEquals(found.commitLogOffset(), decoded.getCommitLogOffset());
            }
        }
    }

    /** A send's body is stored from the request frame's array: only its range, with the range's CRC. */
    @Test
    void aBodyGivenAsARangeOfALargerArrayIsStoredAsJustThatRange(@TempDir Path dir) throws Exception {
        byte[] frame = "HEADER-bytes|the body itself|next frame's bytes".getBytes(StandardCharsets.US_ASCII);
        int offset = "HEADER-bytes|".length();
        int length = "the body itself".length();
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            MessageToStore message = new MessageToStore("TopicR", 0, 0, frame, offset, length, "TAGS\u0001r\u0002",
                0, 1_700_000_000_000L, new InetSocketAddress("127.0.0.1", 4321), 0, 0);
            AppendResult stored = store.append(message);
            assertTrue(stored.isOk());
            // checkCRC = true: the decoder recomputes the body's CRC against the stored one.
            MessageExt decoded = MessageDecoder.decode(store.lookMessageByOffset(stored.commitLogOffset()), true,
                false, false, false, true);
            assertEquals("the body itself", new String(decoded.getBody(), StandardCharsets.US_ASCII));
            assertEquals(bodyCrc(frame, offset, length), decoded.getBodyCRC());
            assertEquals("r", decoded.getTags());
        }
    }

    @Test
    void aBodyRangeOutsideItsArrayIsRefusedWhenTheMessageIsBuilt() {
        byte[] body = new byte[8];
        assertThrows(IllegalArgumentException.class, () -> new MessageToStore("T", 0, 0, body, 4, 5, "", 0, 0L,
            new InetSocketAddress("127.0.0.1", 1), 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new MessageToStore("T", 0, 0, body, -1, 2, "", 0, 0L,
            new InetSocketAddress("127.0.0.1", 1), 0, 0));
    }

    @Test
    void appendResultCarriesTheOffsetMessageIdOfTheStoredRecord(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            store.append(TestStores.message("TopicA", 0, 0, "t"));
            AppendResult second = store.append(TestStores.message("TopicA", 0, 1, "t"));
            MessageExt decoded = MessageDecoder.decode(store.lookMessageByOffset(second.commitLogOffset()));
            assertEquals(decoded.getMsgId(), second.offsetMsgId());
            assertEquals(decoded.getStoreTimestamp(), second.storeTimestamp());
            assertEquals(decoded.getStoreSize(), second.sizeBytes());
        }
    }

    @Test
    void readStatusesFollowRocketMq(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertEquals(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE,
                    store.getMessages("Nope", 0, 0, 1, 1000, TagFilter.ALL).status());
            for (int i = 0; i < 5; i++) {
                store.append(TestStores.message("TopicS", 0, i, i % 2 == 0 ? "even" : "odd"));
            }
            awaitDispatched(store, "TopicS", 0, 5);
            GetMessageResult one = store.getMessages("TopicS", 0, 5, 1, 1000, TagFilter.ALL);
            assertEquals(GetMessageStatus.OFFSET_OVERFLOW_ONE, one.status());
            assertEquals(5, one.nextBeginOffset());
            GetMessageResult badly = store.getMessages("TopicS", 0, 9, 1, 1000, TagFilter.ALL);
            assertEquals(GetMessageStatus.OFFSET_OVERFLOW_BADLY, badly.status());
            assertEquals(5, badly.nextBeginOffset());

            long odd = "odd".hashCode();
            GetMessageResult filtered = store.getMessages("TopicS", 0, 0, 10, 1 << 20, code -> code == odd);
            assertEquals(List.of(1L, 3L), filtered.messages().stream().map(FoundMessage::queueOffset).toList());
            GetMessageResult none = store.getMessages("TopicS", 0, 0, 10, 1 << 20, code -> false);
            assertEquals(GetMessageStatus.NO_MATCHED_MESSAGE, none.status());
            assertEquals(5, none.nextBeginOffset());

            GetMessageResult capped = store.getMessages("TopicS", 0, 0, 10, 1, TagFilter.ALL);
            assertEquals(1, capped.messages().size(), "maxBytes stops after the first message, which always fits");
        }
    }

    @Test
    void aFiltersRecordStageDropsRecordsAfterTheirTagMatched(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            for (int i = 0; i < 6; i++) {
                store.append(TestStores.message("TopicR", 0, i, "t"));
            }
            awaitDispatched(store, "TopicR", 0, 6);
            TagFilter everyThird = new TagFilter() {
                public boolean matches(long tagsCode) {
                    return true;
                }

                public boolean matchesRecord(java.nio.ByteBuffer record) {
                    return io.vrmq.store.format.RecordReader.queueOffset(record, 0) % 3 == 0;
                }
            };
            GetMessageResult read = store.getMessages("TopicR", 0, 1, 10, 1 << 20, everyThird);
            assertEquals(List.of(3L), read.messages().stream().map(FoundMessage::queueOffset).toList());
            assertEquals(6, read.nextBeginOffset());
            TagFilter none = new TagFilter() {
                public boolean matches(long tagsCode) {
                    return true;
                }

                public boolean matchesRecord(java.nio.ByteBuffer record) {
                    return false;
                }
            };
            GetMessageResult nothing = store.getMessages("TopicR", 0, 0, 10, 1 << 20, none);
            assertEquals(GetMessageStatus.NO_MATCHED_MESSAGE, nothing.status());
            assertEquals(6, nothing.nextBeginOffset());
        }
    }

    @Test
    void consumeQueueRollsToNewFilesAndReadsAcrossThem(@TempDir Path dir) throws Exception {
        int count = TestStores.QUEUE_FILE_ENTRIES * 2 + 17;
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            for (int i = 0; i < count; i++) {
                store.append(TestStores.message("Many", 2, i, "t"));
            }
            awaitDispatched(store, "Many", 2, count);
            GetMessageResult read = store.getMessages("Many", 2, TestStores.QUEUE_FILE_ENTRIES - 2, 5, 1 << 20,
                    TagFilter.ALL);
            assertEquals(5, read.messages().size());
            int sequence = TestStores.QUEUE_FILE_ENTRIES;
            assertEquals("Many/2/" + sequence + "/" + "x".repeat(sequence % 50),
                    TestStores.bodyText(read.messages().get(2).record()));
            assertTrue(dir.resolve("consumequeue/Many/2/00000000000000004000").toFile().exists());
        }
    }

    @Test
    void dispatchListenerHearsEveryEntryInOrder(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<Long> seen = new ArrayList<>();
            CountDownLatch all = new CountDownLatch(3);
            store.setDispatchListener((topic, queueId, newMax, tagsCode, storeTimestamp) -> {
                synchronized (seen) {
                    seen.add(newMax);
                }
                assertEquals("blue".hashCode(), tagsCode);
                all.countDown();
            });
            for (int i = 0; i < 3; i++) {
                store.append(TestStores.message("Listen", 0, i, "blue"));
            }
            assertTrue(all.await(10, TimeUnit.SECONDS));
            synchronized (seen) {
                assertEquals(List.of(1L, 2L, 3L), seen);
            }
        }
    }

    @Test
    void batchStoresEveryMessageWithConsecutiveOffsetsOrNone(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            store.append(TestStores.message("Batch", 0, 0, "t"));
            AppendResult batch = store.appendBatch(List.of(TestStores.message("Batch", 0, 1, "t"),
                    TestStores.message("Batch", 0, 2, "t"), TestStores.message("Batch", 0, 3, "t")));
            assertEquals(AppendStatus.PUT_OK, batch.status());
            assertEquals(1, batch.queueOffset());
            assertEquals(3, batch.messageCount());

            long before = store.getCommitLogMaxOffset();
            AppendResult mixed = store.appendBatch(List.of(TestStores.message("Batch", 0, 4, "t"),
                    TestStores.message("Batch", 1, 5, "t")));
            assertEquals(AppendStatus.MESSAGE_ILLEGAL, mixed.status());
            AppendResult tooBig = store.appendBatch(List.of(TestStores.message("Batch", 0, 4, "t"),
                    TestStores.sized("Batch", 0, 17 * 1024)));
            assertEquals(AppendStatus.MESSAGE_ILLEGAL, tooBig.status());
            assertEquals(before, store.getCommitLogMaxOffset(), "a refused batch leaves no bytes");
            assertEquals(4, store.append(TestStores.message("Batch", 0, 4, "t")).queueOffset());
            awaitDispatched(store, "Batch", 0, 5);
            assertEquals(5, store.getMessages("Batch", 0, 0, 32, 1 << 20, TagFilter.ALL).messages().size());
        }
    }

    @Test
    void oversizedBodiesAndPropertiesAreRefusedWithTheNumbers(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            AppendResult body = store.append(TestStores.sized("Big", 0, 16 * 1024 + 1));
            assertEquals(AppendStatus.MESSAGE_ILLEGAL, body.status());
            assertEquals("body 16385 bytes > maxMessageSize 16384", body.remark());
            MessageToStore manyProperties = new MessageToStore("Big", 0, 0, new byte[1], "a\u0001" + "v".repeat(40_000),
                    0, 1, new java.net.InetSocketAddress("127.0.0.1", 1), 0, 0);
            assertEquals(AppendStatus.PROPERTIES_SIZE_EXCEEDED, store.append(manyProperties).status());
            assertEquals(AppendStatus.MESSAGE_ILLEGAL, store.append(TestStores.sized("bad/topic", 0, 1)).status());
            assertEquals(0, store.getCommitLogMaxOffset());
            assertEquals(0, store.append(TestStores.sized("Big", 0, 10)).queueOffset(), "no offset was used");
        }
    }

    @Test
    void lookMessageByOffsetRefusesOffsetsThatAreNotRecordStarts(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            AppendResult result = store.append(TestStores.message("Look", 0, 0, "t"));
            assertEquals(result.sizeBytes(), store.lookMessageByOffset(0).remaining());
            assertNull(store.lookMessageByOffset(1));
            assertNull(store.lookMessageByOffset(result.sizeBytes()));
            assertFalse(store.lookMessageByOffset(0).isDirect() && !store.lookMessageByOffset(0).isReadOnly());
        }
    }

    @Test
    void closedStoreRefusesAppends(@TempDir Path dir) {
        MessageStore store = MessageStore.open(TestStores.config(dir));
        store.close();
        assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE, store.append(TestStores.message("T", 0, 0, "t")).status());
    }

    @Test
    void preparedTransactionMessagesTakeNoQueueOffsetAndGetNoConsumeQueueEntry(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            MessageToStore plain = TestStores.message("Tx", 0, 0, "t");
            MessageToStore prepared = new MessageToStore("Tx", 0, 0, plain.body(), plain.properties(), 0x1 << 2,
                    plain.bornTimestamp(), plain.bornHost(), 0, 0);
            AppendResult half = store.append(prepared);
            assertEquals(AppendStatus.PUT_OK, half.status());
            assertEquals(0, half.queueOffset());
            assertEquals(0, store.append(plain).queueOffset(), "the prepared message did not use offset 0");
            awaitDispatched(store, "Tx", 0, 1);
            assertEquals(1, store.getMaxOffsetInQueue("Tx", 0));
            assertEquals(0x1 << 2, MessageDecoder.decode(store.lookMessageByOffset(half.commitLogOffset()))
                    .getSysFlag());
        }
    }

    @Test
    void anIpv6StoreHostGivesA56CharacterOffsetMessageId(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir).with("storeHost", "[::1]:10911"))) {
            AppendResult result = store.append(TestStores.message("V6", 0, 0, "t"));
            MessageExt decoded = MessageDecoder.decode(store.lookMessageByOffset(result.commitLogOffset()));
            assertEquals(56, result.offsetMsgId().length());
            assertEquals(decoded.getMsgId(), result.offsetMsgId());
        }
    }

    @Test
    void deletingATopicRemovesItsQueuesAndRestartsItsOffsets(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            for (int i = 0; i < 3; i++) {
                store.append(TestStores.message("Gone", 1, i, "t"));
            }
            awaitDispatched(store, "Gone", 1, 3);
            store.deleteTopic("Gone");
            assertFalse(dir.resolve("consumequeue/Gone").toFile().exists());
            assertEquals(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE,
                    store.getMessages("Gone", 1, 0, 1, 1000, TagFilter.ALL).status());
            assertEquals(0, store.append(TestStores.message("Gone", 1, 3, "t")).queueOffset());
        }
    }

    static void awaitDispatched(MessageStore store, String topic, int queueId, long max) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        store.setDispatchListener((t, q, newMax, tags, ts) -> {
            if (t.equals(topic) && q == queueId && newMax >= max) {
                done.countDown();
            }
        });
        if (store.getMaxOffsetInQueue(topic, queueId) < max) {
            assertTrue(done.await(10, TimeUnit.SECONDS), "dispatcher did not reach " + max);
        }
        store.setDispatchListener(null);
    }

    /** RocketMQ's masked CRC32, computed here independently of the store's code. */
    private static int bodyCrc(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }
}
