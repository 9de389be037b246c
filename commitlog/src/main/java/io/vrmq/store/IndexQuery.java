package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.format.MessageProperties;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.index.IndexService;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A key query: index candidates, each re-read from the CommitLog and kept only if it is intact and really carries
 * the key (hash collisions, and entries left pointing past a truncated tail, are dropped). Any thread.
 */
final class IndexQuery {
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
            if (record != null && carriesKey(record, topic, key)) {
                found.add(new FoundMessage(RecordReader.queueOffset(record, 0), offset, 0, record));
            }
        }
        return found;
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
