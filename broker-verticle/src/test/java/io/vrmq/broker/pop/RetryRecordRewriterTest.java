package io.vrmq.broker.pop;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.StoreConfig;
import io.vrmq.store.TagFilter;
import io.vrmq.store.format.RecordLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A retry-topic record handed out under its original topic: a valid record, body and other fields unchanged. */
class RetryRecordRewriterTest {

    @Test
    void theCopyHasTheOriginalTopicAndTheReceiptAndEverythingElseAsStored(@TempDir Path dir) throws Exception {
        StoreConfig config = StoreConfig.from(Map.of("storePathRootDir", dir.toString(), "mappedFileSizeCommitLog",
            4 * 1024 * 1024, "maxMessageSize", 1024 * 1024, "storeHost", "127.0.0.1:10911"));
        try (MessageStore store = MessageStore.open(config)) {
            String properties = MessageProperties.format(Map.of(MessageConst.TAGS, "TagA",
                MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "ID1"));
            store.append(MessageToStore.of("%RETRY%CG_Orders", 0, "body".getBytes(StandardCharsets.UTF_8),
                properties));
            ByteBuffer stored = waitForRecord(store);
            ByteBuffer copy = RetryRecordRewriter.rewrite(stored, "Orders", "0 1 2 3 1 b 0 0");

            StoredMessage original = StoredMessage.decode(stored);
            StoredMessage rewritten = StoredMessage.decode(copy);
            assertEquals(copy.remaining(), copy.getInt(RecordLayout.TOTAL_SIZE_OFFSET));
            assertEquals("Orders", rewritten.topic());
            assertEquals("0 1 2 3 1 b 0 0", rewritten.propertyMap().get(MessageConst.POP_CK));
            assertEquals("ID1", rewritten.propertyMap().get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
            assertArrayEquals(original.body(), rewritten.body());
            assertEquals(original.queueOffset(), rewritten.queueOffset());
            assertEquals(original.commitLogOffset(), rewritten.commitLogOffset());
            assertEquals(original.storeTimestamp(), rewritten.storeTimestamp());
            assertEquals(stored.getInt(RecordLayout.BODY_CRC_OFFSET), copy.getInt(RecordLayout.BODY_CRC_OFFSET));
        }
    }

    private static ByteBuffer waitForRecord(MessageStore store) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5_000;
        while (System.currentTimeMillis() < deadline) {
            var result = store.getMessages("%RETRY%CG_Orders", 0, 0, 1, Integer.MAX_VALUE, TagFilter.ALL);
            if (!result.messages().isEmpty()) {
                return result.messages().get(0).record();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the record was never dispatched");
    }
}
