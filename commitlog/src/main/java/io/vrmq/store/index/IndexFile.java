package io.vrmq.store.index;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One RocketMQ IndexFile: a hash table from key to commit-log offsets with chained entries, newest first.
 * <pre>
 *  header (40 bytes)
 *   0   8  beginTimestamp     store time of the first entry
 *   8   8  endTimestamp       store time of the last entry
 *  16   8  beginPhyOffset     commit-log offset of the first entry
 *  24   8  endPhyOffset       commit-log offset of the last entry
 *  32   4  hashSlotCount      slots in use
 *  36   4  indexCount         next entry number; starts at 1 (entry 0 is never used: 0 means "none")
 *  slots (hashSlots x 4 bytes, at 40): entry number of the newest entry whose key hashes to the slot
 *  entries (maxIndexCount x 20 bytes, at 40 + hashSlots * 4)
 *   0   4  keyHash            abs(key.hashCode()), Integer.MIN_VALUE mapped to 0
 *   4   8  phyOffset          commit-log offset of the record
 *  12   4  timeDiff           seconds since beginTimestamp, clamped to 0..Integer.MAX_VALUE
 *  16   4  prevIndex          entry number of the previous entry in the same slot, 0 = end of chain
 * </pre>
 * Threads: the dispatcher writes; readers query concurrently. An entry and its slot are written before
 * {@code publishedCount} (volatile) moves past it, and readers never follow an entry number at or beyond it.
 */
public final class IndexFile {
    static final int HEADER_BYTES = 40;
    static final int BEGIN_TIMESTAMP_AT = 0;
    static final int END_TIMESTAMP_AT = BEGIN_TIMESTAMP_AT + 8;
    static final int BEGIN_PHY_OFFSET_AT = END_TIMESTAMP_AT + 8;
    static final int END_PHY_OFFSET_AT = BEGIN_PHY_OFFSET_AT + 8;
    static final int HASH_SLOT_COUNT_AT = END_PHY_OFFSET_AT + 8;
    static final int INDEX_COUNT_AT = HASH_SLOT_COUNT_AT + 4;
    static final int SLOT_BYTES = 4;
    static final int ENTRY_BYTES = 20;
    static final int ENTRY_KEY_HASH_AT = 0;
    static final int ENTRY_PHY_OFFSET_AT = ENTRY_KEY_HASH_AT + 4;
    static final int ENTRY_TIME_DIFF_AT = ENTRY_PHY_OFFSET_AT + 8;
    static final int ENTRY_PREV_INDEX_AT = ENTRY_TIME_DIFF_AT + 4;

    private final Path file;
    private final int hashSlots;
    private final int maxIndexCount;
    private final MappedByteBuffer buffer;
    private volatile int publishedCount;

    private IndexFile(Path file, int hashSlots, int maxIndexCount, MappedByteBuffer buffer) {
        this.file = file;
        this.hashSlots = hashSlots;
        this.maxIndexCount = maxIndexCount;
        this.buffer = buffer;
        int count = buffer.getInt(INDEX_COUNT_AT);
        this.publishedCount = count <= 0 ? 1 : Math.min(count, maxIndexCount);
        if (count <= 0) {
            buffer.putInt(INDEX_COUNT_AT, 1);
        }
    }

    public static int fileBytes(int hashSlots, int maxIndexCount) {
        return HEADER_BYTES + hashSlots * SLOT_BYTES + maxIndexCount * ENTRY_BYTES;
    }

    /** Maps {@code file}, creating it when absent. An existing file must have exactly the configured size. */
    public static IndexFile open(Path file, int hashSlots, int maxIndexCount) {
        int bytes = fileBytes(hashSlots, maxIndexCount);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
             FileChannel channel = raf.getChannel()) {
            if (raf.length() != 0 && raf.length() != bytes) {
                throw new IllegalStateException("index file " + file + " is " + raf.length() + " bytes, expected "
                        + bytes + " for maxIndexHashSlots=" + hashSlots + " maxIndexCount=" + maxIndexCount);
            }
            raf.setLength(bytes);
            return new IndexFile(file, hashSlots, maxIndexCount,
                    channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map index file " + file, e);
        }
    }

    public static int keyHash(String key) {
        int hash = Math.abs(key.hashCode());
        return hash < 0 ? 0 : hash;
    }

    public boolean isFull() {
        return publishedCount >= maxIndexCount;
    }

    public boolean isEmpty() {
        return publishedCount <= 1;
    }

    public long beginTimestamp() {
        return buffer.getLong(BEGIN_TIMESTAMP_AT);
    }

    public long endTimestamp() {
        return buffer.getLong(END_TIMESTAMP_AT);
    }

    public long endPhyOffset() {
        return buffer.getLong(END_PHY_OFFSET_AT);
    }

    public Path file() {
        return file;
    }

    /** Adds an entry; false when the file is full. Dispatcher only. */
    public boolean put(String key, long phyOffset, long storeTimestamp) {
        int index = publishedCount;
        if (index >= maxIndexCount) {
            return false;
        }
        int keyHash = keyHash(key);
        int slotAt = HEADER_BYTES + (keyHash % hashSlots) * SLOT_BYTES;
        int previous = buffer.getInt(slotAt);
        if (previous <= 0 || previous >= index) {
            previous = 0;
        }
        if (index == 1) {
            buffer.putLong(BEGIN_TIMESTAMP_AT, storeTimestamp);
            buffer.putLong(BEGIN_PHY_OFFSET_AT, phyOffset);
        }
        long timeDiffSeconds = Math.max(0, Math.min(Integer.MAX_VALUE, (storeTimestamp - beginTimestamp()) / 1000));
        int entryAt = entryPosition(index);
        buffer.putInt(entryAt + ENTRY_KEY_HASH_AT, keyHash);
        buffer.putLong(entryAt + ENTRY_PHY_OFFSET_AT, phyOffset);
        buffer.putInt(entryAt + ENTRY_TIME_DIFF_AT, (int) timeDiffSeconds);
        buffer.putInt(entryAt + ENTRY_PREV_INDEX_AT, previous);
        buffer.putInt(slotAt, index);
        if (previous == 0) {
            buffer.putInt(HASH_SLOT_COUNT_AT, buffer.getInt(HASH_SLOT_COUNT_AT) + 1);
        }
        buffer.putInt(INDEX_COUNT_AT, index + 1);
        buffer.putLong(END_TIMESTAMP_AT, storeTimestamp);
        buffer.putLong(END_PHY_OFFSET_AT, phyOffset);
        publishedCount = index + 1;
        return true;
    }

    /**
     * Adds to {@code out} the commit-log offsets of entries whose key hash equals {@code key}'s and whose store time
     * is within [beginTimestamp, endTimestamp], newest first, until {@code out} holds {@code maxCount}. Hash
     * collisions are possible: the caller checks the records. Any thread.
     */
    public void query(String key, long beginTimestamp, long endTimestamp, int maxCount, List<Long> out) {
        int published = publishedCount;
        int keyHash = keyHash(key);
        int index = buffer.getInt(HEADER_BYTES + (keyHash % hashSlots) * SLOT_BYTES);
        long fileBegin = beginTimestamp();
        int hops = 0;
        while (index > 0 && index < published && out.size() < maxCount && hops++ < published) {
            int entryAt = entryPosition(index);
            long storeTimestamp = fileBegin + buffer.getInt(entryAt + ENTRY_TIME_DIFF_AT) * 1000L;
            if (buffer.getInt(entryAt + ENTRY_KEY_HASH_AT) == keyHash
                    && storeTimestamp >= beginTimestamp - 999 && storeTimestamp <= endTimestamp) {
                out.add(buffer.getLong(entryAt + ENTRY_PHY_OFFSET_AT));
            }
            int previous = buffer.getInt(entryAt + ENTRY_PREV_INDEX_AT);
            if (previous >= index) {
                break;   // chains only point to older entries; anything else is damage
            }
            index = previous;
        }
    }

    /** True when the file may hold entries stored within [begin, end]. */
    public boolean overlaps(long beginTimestamp, long endTimestamp) {
        return !isEmpty() && beginTimestamp() <= endTimestamp && endTimestamp() >= beginTimestamp - 999;
    }

    public void flush() {
        buffer.force();
    }

    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete index file " + file, e);
        }
    }

    private int entryPosition(int index) {
        return HEADER_BYTES + hashSlots * SLOT_BYTES + index * ENTRY_BYTES;
    }
}
