package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.format.MessageProperties;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.index.IndexService;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A key query: index candidates, each re-read from the CommitLog and kept only if it is intact, really carries the
 * key and was stored within the asked time range (hash collisions, entries left pointing past a truncated tail, and
 * entries of a truncated record whose offset another record took since, are dropped). Any thread.
 */
final class IndexQuery {
    private static final long INDEX_TIME_TOLERANCE_MS = 999;
    private final CommitLog commitLog;
    private final IndexService index;

    IndexQuery(CommitLog commitLog, IndexService index) {
        this.commitLog = commitLog;
        this.index = index;
    }

    List<FoundMessage> query(String topic, String key, int maxCount, long beginTimestampMs, long endTimestampMs) {
        List<FoundMessage> found = new ArrayList<>();
        for (long offset : index.query(topic, key, maxCount * 2, beginTimestampMs, endTimestampMs)) {
            if (found.size() >= maxCount) {
                break;
            }
            ByteBuffer record = commitLog.readRecord(offset);
            if (record != null && carriesKey(record, topic, key)
                    && isStoredWithin(record, beginTimestampMs, endTimestampMs)) {
                found.add(new FoundMessage(RecordReader.queueOffset(record, 0), offset, 0, record));
            }
        }
        return found;
    }

    /** The index keeps whole seconds: the same 999 ms tolerance as its own time filter. */
    private static boolean isStoredWithin(ByteBuffer record, long beginTimestampMs, long endTimestampMs) {
        long storeTimestamp = RecordReader.storeTimestamp(record, 0);
        return storeTimestamp + INDEX_TIME_TOLERANCE_MS >= beginTimestampMs
                && storeTimestamp - INDEX_TIME_TOLERANCE_MS <= endTimestampMs;   // no overflow at Long.MAX_VALUE
    }

    private static boolean carriesKey(ByteBuffer record, String topic, String key) {
        if (!RecordReader.topic(record, 0).equals(topic)) {
            return false;
        }
        String properties = RecordReader.properties(record, 0);
        if (key.equals(MessageProperties.get(properties, MessageProperties.UNIQ_KEY))) {
            return true;
        }
        if (MessageProperties.keys(properties).contains(key)) {
            return true;
        }
        String tags = MessageProperties.get(properties, MessageProperties.TAGS);
        return tags != null && key.equals("T#" + tags);
    }
}
