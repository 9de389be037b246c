package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.format.RecordReader;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueEntry;
import io.vrmq.store.queue.ConsumeQueueTable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads by queue offset: ConsumeQueue entries, then the records they name, checked (size, magic, physical offset,
 * body CRC) so a damaged record is never served. Each message read is counted by the {@link PageCacheEstimate}, which
 * also decides the "pull from slave" suggestion. Any thread, concurrently with the writer and dispatcher.
 */
final class QueueReader {
    private static final Logger log = LoggerFactory.getLogger(QueueReader.class);

    private final CommitLog commitLog;
    private final ConsumeQueueTable queues;
    private final int maxFilterMessageCount;
    private final PageCacheEstimate pageCache;

    QueueReader(CommitLog commitLog, ConsumeQueueTable queues, int maxFilterMessageCount,
                PageCacheEstimate pageCache) {
        this.commitLog = commitLog;
        this.queues = queues;
        this.maxFilterMessageCount = maxFilterMessageCount;
        this.pageCache = pageCache;
    }

    GetMessageResult getMessages(String topic, int queueId, long offset, int maxCount, int maxBytes,
                                 TagFilter filter) {
        ConsumeQueue queue = queues.find(topic, queueId);
        if (queue == null) {
            return GetMessageResult.empty(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE, 0, 0, 0);
        }
        long min = queue.minOffset();
        long max = queue.maxOffset();
        if (max == 0) {
            return GetMessageResult.empty(GetMessageStatus.NO_MESSAGE_IN_QUEUE, 0, min, max);
        }
        if (offset < min) {
            return GetMessageResult.empty(GetMessageStatus.OFFSET_TOO_SMALL, min, min, max);
        }
        if (offset == max) {
            return GetMessageResult.empty(GetMessageStatus.OFFSET_OVERFLOW_ONE, offset, min, max);
        }
        if (offset > max) {
            return GetMessageResult.empty(GetMessageStatus.OFFSET_OVERFLOW_BADLY, max, min, max);
        }
        return scan(queue, offset, max, min, maxCount, maxBytes, filter);
    }

    private GetMessageResult scan(ConsumeQueue queue, long offset, long max, long min, int maxCount, int maxBytes,
                                  TagFilter filter) {
        List<FoundMessage> found = new ArrayList<>(Math.min(maxCount, 64));
        ConsumeQueueEntry entry = new ConsumeQueueEntry();
        int totalBytes = 0;
        int filtered = 0;
        int missing = 0;
        boolean lastOnDisk = false;
        long maxPhysicalOffset = commitLog.maxOffset();
        long next = offset;
        long scanLimit = Math.min(max, offset + Math.max(maxCount, maxFilterMessageCount));
        for (; next < scanLimit && found.size() < maxCount; next++) {
            if (!queue.read(next, entry) || entry.isBlank()) {
                missing++;
                continue;
            }
            if (!filter.matches(entry.tagsCode())) {
                filtered++;
                continue;
            }
            if (!found.isEmpty() && totalBytes + entry.sizeBytes() > maxBytes) {
                break;
            }
            ByteBuffer record = commitLog.readRecord(entry.commitLogOffset());
            if (record == null || !isNamedRecord(record, queue, entry)) {
                missing++;
                logUnreadable(queue, entry);
                continue;
            }
            if (!filter.matchesRecord(record)) {
                filtered++;
                continue;
            }
            found.add(new FoundMessage(next, entry.commitLogOffset(), entry.tagsCode(), record));
            totalBytes += record.remaining();
            lastOnDisk = pageCache.countRead(maxPhysicalOffset, entry.commitLogOffset());
        }
        GetMessageStatus status = !found.isEmpty() ? GetMessageStatus.FOUND
                : filtered > 0 ? GetMessageStatus.NO_MATCHED_MESSAGE : GetMessageStatus.OFFSET_FOUND_NULL;
        return new GetMessageResult(status, next, min, max, found, totalBytes, lastOnDisk);
    }

    /**
     * The record is the one the entry names: same size, queue and queue offset. After a truncation another record may
     * be written at a truncated entry's commit log offset while a reader still holds that entry.
     */
    private static boolean isNamedRecord(ByteBuffer record, ConsumeQueue queue, ConsumeQueueEntry entry) {
        return record.remaining() == entry.sizeBytes()
                && RecordReader.queueOffset(record, 0) == entry.queueOffset()
                && RecordReader.queueId(record, 0) == queue.queueId();
    }

    private void logUnreadable(ConsumeQueue queue, ConsumeQueueEntry entry) {
        if (entry.commitLogOffset() >= commitLog.minOffset()) {
            log.warn("skipping {}-{} offset {}: record at commit log offset {} ({} bytes) is damaged",
                    queue.topic(), queue.queueId(), entry.queueOffset(), entry.commitLogOffset(), entry.sizeBytes());
        }
    }

    /** Store time of the message at {@code queueOffset}, or -1 when it has none (blank, deleted, damaged). */
    long storeTime(ConsumeQueue queue, long queueOffset) {
        ConsumeQueueEntry entry = new ConsumeQueueEntry();
        if (queueOffset < 0 || queueOffset >= queue.maxOffset() || !queue.read(queueOffset, entry)
                || entry.isBlank() || entry.commitLogOffset() < commitLog.minOffset()) {
            return -1;
        }
        return commitLog.storeTimestampAt(entry.commitLogOffset());
    }

    /** Binary search on store time over [min, max); store times never decrease along a queue. */
    long offsetByTime(ConsumeQueue queue, long timestampMs, TimeBoundary boundary) {
        long low = queue.minOffset();
        long high = queue.maxOffset() - 1;
        if (high < low) {
            return queue.maxOffset();
        }
        if (boundary == TimeBoundary.LOWER) {
            long answer = queue.maxOffset();
            while (low <= high) {
                long mid = (low + high) >>> 1;
                long time = storeTimeAtOrAfter(queue, mid, high);
                if (time >= timestampMs) {
                    answer = mid;
                    high = mid - 1;
                } else {
                    low = mid + 1;
                }
            }
            return answer;
        }
        long answer = queue.minOffset();
        while (low <= high) {
            long mid = (low + high) >>> 1;
            long time = storeTimeAtOrAfter(queue, mid, high);
            if (time <= timestampMs && time >= 0) {
                answer = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return answer;
    }

    /** Store time at {@code offset}, or of the first readable entry after it up to {@code limit} (blanks skipped). */
    private long storeTimeAtOrAfter(ConsumeQueue queue, long offset, long limit) {
        for (long at = offset; at <= limit; at++) {
            long time = storeTime(queue, at);
            if (time >= 0) {
                return time;
            }
        }
        return Long.MAX_VALUE;
    }
}
