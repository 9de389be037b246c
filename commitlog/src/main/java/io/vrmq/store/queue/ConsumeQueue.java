package io.vrmq.store.queue;

import io.vrmq.store.segment.MappedSegment;
import io.vrmq.store.segment.SegmentedLog;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ConsumeQueue of one topic-queue: entry N (queue offset N) at byte N * 20 of a log of
 * {@code mappedFileSizeConsumeQueue}-byte files under {@code consumequeue/<topic>/<queueId>/}.
 * <pre>
 *  offset  size  field
 *   0       8    commitLogOffset   where the record starts in the CommitLog
 *   8       4    size              record bytes; Integer.MAX_VALUE marks a blank (no message at this offset)
 *  12       8    tagsCode          hash of the TAGS property (0 without a tag)
 * </pre>
 * Blank entries (0, Integer.MAX_VALUE, 0) fill the queue below its first message when it starts above 0, and
 * stand for a message whose record recovery found damaged: its queue offset stays taken, nothing is served.
 *
 * <p>Threads: only the dispatcher (and recovery before it starts) writes; it publishes an entry by raising
 * {@link #maxOffset()} (volatile) after writing it, so any thread may read entries below a max it has seen.
 */
public final class ConsumeQueue {
    public static final int ENTRY_BYTES = 20;
    static final int COMMIT_LOG_OFFSET_AT = 0;
    static final int SIZE_AT = COMMIT_LOG_OFFSET_AT + 8;
    static final int TAGS_CODE_AT = SIZE_AT + 4;
    /** Size field of a blank entry, as RocketMQ writes it. */
    public static final int BLANK_SIZE = Integer.MAX_VALUE;

    private static final Logger log = LoggerFactory.getLogger(ConsumeQueue.class);

    private final String topic;
    private final int queueId;
    private final SegmentedLog entries;
    private volatile long minOffset;
    private volatile long maxOffset;

    private ConsumeQueue(String topic, int queueId, SegmentedLog entries) {
        this.topic = topic;
        this.queueId = queueId;
        this.entries = entries;
    }

    /** Opens (or creates) the queue in {@code directory} and finds its max offset: the first all-zero entry. */
    public static ConsumeQueue open(Path directory, String topic, int queueId, int fileBytes) {
        ConsumeQueue queue = new ConsumeQueue(topic, queueId, SegmentedLog.open(directory, fileBytes));
        queue.recoverBounds();
        return queue;
    }

    public String topic() {
        return topic;
    }

    public int queueId() {
        return queueId;
    }

    /** Offset of the first entry that still names a kept record (0 for a fresh queue). */
    public long minOffset() {
        return minOffset;
    }

    /** The next queue offset to be written: entries below it exist. */
    public long maxOffset() {
        return maxOffset;
    }

    /** True when files are missing or were cut: the queue must be rebuilt from the CommitLog. Open time only. */
    public boolean isDamagedOnOpen() {
        return entries.hasGap() || entries.hadShortFile() || entries.isEmpty();
    }

    /**
     * Writes the entry for {@code queueOffset}, padding any gap below it with blanks. Idempotent: an existing entry
     * naming the same record is left alone (a re-dispatch after a crash). Returns true if anything was written.
     * Dispatcher only.
     */
    public boolean put(long queueOffset, long commitLogOffset, int sizeBytes, long tagsCode) {
        if (queueOffset < maxOffset) {
            if (entries.find(queueOffset * ENTRY_BYTES) == null) {
                return false;   // below the kept files: retention already dropped it
            }
            long existing = commitLogOffsetAt(queueOffset);
            if (existing == commitLogOffset && sizeAt(queueOffset) == sizeBytes) {
                return false;
            }
            log.warn("consume queue {}-{} entry {} rewritten: was commitLogOffset {}, now {}", topic, queueId,
                    queueOffset, existing, commitLogOffset);
            writeEntry(queueOffset, commitLogOffset, sizeBytes, tagsCode);
            return true;
        }
        for (long blank = firstWritableOffset(queueOffset); blank < queueOffset; blank++) {
            writeEntry(blank, 0, BLANK_SIZE, 0);
        }
        writeEntry(queueOffset, commitLogOffset, sizeBytes, tagsCode);
        maxOffset = queueOffset + 1;
        if (!isReadable(minOffset)) {
            minOffset = firstNonBlankFrom(Math.max(minOffset, firstKeptOffset()));
        }
        return true;
    }

    /** Reserves {@code queueOffset} with a blank entry (its record is damaged): never handed out again. */
    public void putBlank(long queueOffset) {
        if (queueOffset >= maxOffset) {
            for (long blank = firstWritableOffset(queueOffset); blank <= queueOffset; blank++) {
                writeEntry(blank, 0, BLANK_SIZE, 0);
            }
            maxOffset = queueOffset + 1;
        }
    }

    /**
     * Copies entry {@code queueOffset} into {@code into}; false when it is not in a kept file. The caller checked
     * {@code queueOffset < maxOffset()}. Any thread.
     */
    public boolean read(long queueOffset, ConsumeQueueEntry into) {
        long byteOffset = queueOffset * ENTRY_BYTES;
        MappedSegment file = entries.find(byteOffset);
        if (file == null) {
            return false;
        }
        int at = (int) (byteOffset - file.baseOffset());
        ByteBuffer buffer = file.buffer();
        into.set(queueOffset, buffer.getLong(at + COMMIT_LOG_OFFSET_AT), buffer.getInt(at + SIZE_AT),
                buffer.getLong(at + TAGS_CODE_AT));
        return true;
    }

    /** True when the entry exists in kept files and is not a blank. */
    boolean isReadable(long queueOffset) {
        MappedSegment file = entries.find(queueOffset * ENTRY_BYTES);
        return file != null && queueOffset < maxOffset
                && file.buffer().getInt((int) (queueOffset * ENTRY_BYTES - file.baseOffset()) + SIZE_AT) != BLANK_SIZE;
    }

    private long commitLogOffsetAt(long queueOffset) {
        long byteOffset = queueOffset * ENTRY_BYTES;
        MappedSegment file = entries.find(byteOffset);
        return file.buffer().getLong((int) (byteOffset - file.baseOffset()) + COMMIT_LOG_OFFSET_AT);
    }

    private int sizeAt(long queueOffset) {
        long byteOffset = queueOffset * ENTRY_BYTES;
        MappedSegment file = entries.find(byteOffset);
        return file.buffer().getInt((int) (byteOffset - file.baseOffset()) + SIZE_AT);
    }

    /**
     * Turns entries whose records end beyond {@code commitLogEnd} into blanks (recovery cut the CommitLog there).
     * They are not removed: their queue offsets were handed out once and must never name another message.
     */
    public void blankAfter(long commitLogEnd) {
        ConsumeQueueEntry entry = new ConsumeQueueEntry();
        int blanked = 0;
        for (long offset = maxOffset - 1; offset >= firstKeptOffset() && read(offset, entry); offset--) {
            if (!entry.isBlank() && entry.commitLogOffset() + entry.sizeBytes() <= commitLogEnd) {
                break;
            }
            if (!entry.isBlank()) {
                writeEntry(offset, 0, BLANK_SIZE, 0);
                blanked++;
            }
        }
        if (blanked > 0) {
            log.warn("consume queue {}-{}: {} entries past the commit log end {} blanked; offsets up to {} stay taken",
                    topic, queueId, blanked, commitLogEnd, maxOffset - 1);
        }
    }

    /**
     * Removes the entries of records at or after {@code commitLogOffset} (the CommitLog was cut there to follow a new
     * master), and the blanks after the last kept entry: unlike {@link #blankAfter}, their queue offsets are free
     * again, because the new master's records carry them. The removed bytes are zeroed, so reopening finds the same
     * end. A queue left without entries keeps one zeroed file, so it does not look damaged at the next open.
     * Returns how many entries went. Writer, while the dispatcher is held off.
     */
    public long truncateTo(long commitLogOffset) {
        ConsumeQueueEntry entry = new ConsumeQueueEntry();
        long keptEnd = maxOffset;
        long first = firstKeptOffset();
        while (keptEnd > first && read(keptEnd - 1, entry)
                && (entry.isBlank() || entry.commitLogOffset() >= commitLogOffset)) {
            keptEnd--;
        }
        long removed = maxOffset - keptEnd;
        if (removed == 0) {
            return 0;
        }
        long byteEnd = keptEnd * ENTRY_BYTES;
        maxOffset = keptEnd;   // readers stop below the cut before its bytes are zeroed
        minOffset = Math.min(minOffset, keptEnd);
        entries.truncateTo(byteEnd);
        if (entries.isEmpty()) {
            long fileBytes = entries.segmentBytes();
            entries.roll(byteEnd / fileBytes * fileBytes);
        }
        log.info("consume queue {}-{}: {} entries at or after commit log offset {} removed; next offset {}", topic,
            queueId, removed, commitLogOffset, keptEnd);
        return removed;
    }

    /**
     * Deletes files whose every entry names a record below {@code commitLogMinOffset} (never the last file) and
     * moves the min offset to the first entry at or above it. Retention only.
     */
    public void deleteBelow(long commitLogMinOffset) {
        MappedSegment[] files = entries.segments();
        for (int i = 0; i < files.length - 1; i++) {
            long lastEntry = (files[i].baseOffset() + files[i].capacityBytes()) / ENTRY_BYTES - 1;
            if (!isReadable(lastEntry) || commitLogOffsetAt(lastEntry) >= commitLogMinOffset) {
                break;
            }
            entries.deleteFirst();
            log.info("consume queue {}-{} deleted file {}", topic, queueId, files[i].file());
        }
        long offset = Math.max(minOffset, firstKeptOffset());
        while (offset < maxOffset && (!isReadable(offset) || commitLogOffsetAt(offset) < commitLogMinOffset)) {
            offset++;
        }
        minOffset = offset;
    }

    public long flush() {
        return entries.flush();
    }

    /** Bytes of entries written but not yet forced. */
    public long unflushedBytes() {
        return entries.unflushedBytes();
    }

    /**
     * Commit log offset of the oldest entry not yet forced, or {@link Long#MAX_VALUE} when none is: recovery must
     * re-dispatch from there if this queue is left unforced. Blanks are skipped (recovery writes them again from the
     * reserved offsets it keeps until a clean shutdown). Flusher thread (forces move the flushed position).
     */
    public long oldestUnflushedCommitLogOffset() {
        ConsumeQueueEntry entry = new ConsumeQueueEntry();
        long end = maxOffset;
        for (long at = Math.max(minOffset, entries.flushedOffset() / ENTRY_BYTES); at < end; at++) {
            if (read(at, entry) && !entry.isBlank()) {
                return entry.commitLogOffset();
            }
        }
        return Long.MAX_VALUE;
    }

    /** Deletes every file of this queue (topic deletion). */
    public void deleteFiles() {
        entries.deleteAll();
    }

    public Path directory() {
        return entries.directory();
    }

    private void recoverBounds() {
        MappedSegment last = entries.last();
        if (last == null) {
            return;
        }
        long end = last.baseOffset();
        ByteBuffer buffer = last.buffer();
        for (int at = 0; at + ENTRY_BYTES <= last.capacityBytes(); at += ENTRY_BYTES) {
            if (buffer.getLong(at) == 0 && buffer.getInt(at + SIZE_AT) == 0 && buffer.getLong(at + TAGS_CODE_AT) == 0) {
                break;
            }
            end = last.baseOffset() + at + ENTRY_BYTES;
        }
        for (MappedSegment file : entries.segments()) {
            file.setWritePosition(file == last ? (int) (end - last.baseOffset()) : file.capacityBytes());
        }
        entries.markFlushed(end);
        maxOffset = end / ENTRY_BYTES;
        minOffset = firstNonBlankFrom(firstKeptOffset());
    }

    private long firstKeptOffset() {
        return entries.isEmpty() ? maxOffset : entries.minOffset() / ENTRY_BYTES;
    }

    private long firstNonBlankFrom(long offset) {
        long at = offset;
        while (at < maxOffset && !isReadable(at)) {
            at++;
        }
        return at;
    }

    /** The lowest offset a write may start at: the max, or the start of the file that will hold {@code target}. */
    private long firstWritableOffset(long target) {
        if (!entries.isEmpty()) {
            return maxOffset;
        }
        long fileBytes = entries.segmentBytes();
        long fileStart = (target * ENTRY_BYTES) / fileBytes * fileBytes;
        return fileStart / ENTRY_BYTES;
    }

    private void writeEntry(long queueOffset, long commitLogOffset, int sizeBytes, long tagsCode) {
        long byteOffset = queueOffset * ENTRY_BYTES;
        MappedSegment file = entries.find(byteOffset);
        if (file == null) {
            long fileBytes = entries.segmentBytes();
            file = entries.roll(byteOffset / fileBytes * fileBytes);
        }
        int at = (int) (byteOffset - file.baseOffset());
        if (file.reachesUnwrittenPage(at, ENTRY_BYTES)) {
            // A first touch of a page: through the file, not a fault of the mapping (see writeThroughFile). With
            // many queues nearly every entry is the first of its file.
            ByteBuffer entry = ByteBuffer.allocate(ENTRY_BYTES);
            entry.putLong(COMMIT_LOG_OFFSET_AT, commitLogOffset);
            entry.putInt(SIZE_AT, sizeBytes);
            entry.putLong(TAGS_CODE_AT, tagsCode);
            file.writeThroughFile(at, entry);
        } else {
            ByteBuffer buffer = file.buffer();
            buffer.putLong(at + COMMIT_LOG_OFFSET_AT, commitLogOffset);
            buffer.putInt(at + SIZE_AT, sizeBytes);
            buffer.putLong(at + TAGS_CODE_AT, tagsCode);
        }
        if (at + ENTRY_BYTES > file.writePosition()) {
            file.setWritePosition(at + ENTRY_BYTES);
        }
    }

}
