package io.vrmq.store;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Small stores for tests: 64 KiB segments, 100-entry ConsumeQueue files, tiny index files. */
final class TestStores {
    static final int SEGMENT_BYTES = 64 * 1024;
    static final int QUEUE_FILE_ENTRIES = 100;

    private TestStores() {
    }

    static StoreConfig config(Path root, FlushDiskType flushDiskType) {
        Map<String, Object> values = new HashMap<>();
        values.put("storePathRootDir", root.toString());
        values.put("mappedFileSizeCommitLog", SEGMENT_BYTES);
        values.put("mappedFileSizeConsumeQueue", QUEUE_FILE_ENTRIES * 20);
        values.put("flushDiskType", flushDiskType.name());
        values.put("maxMessageSize", 16 * 1024);
        values.put("flushIntervalCommitLogMs", 50);
        values.put("flushIntervalConsumeQueueMs", 100);
        values.put("maxIndexHashSlots", 64);
        values.put("maxIndexCount", 200);
        values.put("storeHost", "127.0.0.1:10911");
        // Tests run retention by hand (runRetention) with their own clock; keep the background run out of the way.
        values.put("retentionCheckIntervalMs", 3_600_000);
        return StoreConfig.from(values);
    }

    static StoreConfig config(Path root) {
        return config(root, FlushDiskType.ASYNC_FLUSH);
    }

    /** A message with TAGS, KEYS and UNIQ_KEY properties and a body naming its topic, queue and sequence. */
    static MessageToStore message(String topic, int queueId, int sequence, String tag) {
        String properties = "TAGS\u0001" + tag + "\u0002KEYS\u0001key-" + sequence + " shared\u0002UNIQ_KEY\u0001uniq-"
                + sequence + "\u0002";
        byte[] body = (topic + "/" + queueId + "/" + sequence + "/" + "x".repeat(sequence % 50))
                .getBytes(StandardCharsets.UTF_8);
        return new MessageToStore(topic, queueId, 0, body, properties, 0, 1_700_000_000_000L + sequence,
                new InetSocketAddress("127.0.0.1", 40000), 0, 0);
    }

    static MessageToStore sized(String topic, int queueId, int bodyBytes) {
        return new MessageToStore(topic, queueId, 0, new byte[bodyBytes], "", 0, 1L,
                new InetSocketAddress("127.0.0.1", 40000), 0, 0);
    }

    static String bodyText(java.nio.ByteBuffer record) {
        org.apache.rocketmq.common.message.MessageExt decoded =
                org.apache.rocketmq.common.message.MessageDecoder.decode(record.duplicate(), true, false, false,
                        false, true);
        return decoded == null ? null : new String(decoded.getBody(), StandardCharsets.UTF_8);
    }
}
