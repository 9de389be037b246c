package io.vrmq.store.index;

import io.vrmq.store.format.MessageProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index files under {@code index/}, named by creation time (yyyyMMddHHmmssSSS, UTC). Each record is indexed
 * under {@code topic#UNIQ_KEY}, {@code topic#<each KEYS token>} and {@code topic#T#<TAGS>} (RocketMQ 5.5.0's keys);
 * rolled-back transaction records are not indexed.
 *
 * <p>Threads: the dispatcher calls {@link #index}; any thread queries; retention deletes old files.
 */
public final class IndexService {
    /** Sys flag transaction type bits (2..3); 3 = rollback. */
    private static final int TRANSACTION_TYPE_MASK = 0x3 << 2;
    private static final int TRANSACTION_ROLLBACK = 0x3 << 2;
    private static final DateTimeFormatter FILE_NAME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").withZone(ZoneOffset.UTC);
    private static final Logger log = LoggerFactory.getLogger(IndexService.class);

    private final Path directory;
    private final int hashSlots;
    private final int maxIndexCount;
    private final InstantSource clock;
    private final List<IndexFile> files = new CopyOnWriteArrayList<>();
    private long indexedUpTo = -1;

    private IndexService(Path directory, int hashSlots, int maxIndexCount, InstantSource clock) {
        this.directory = directory;
        this.hashSlots = hashSlots;
        this.maxIndexCount = maxIndexCount;
        this.clock = clock;
    }

    public static IndexService open(Path directory, int hashSlots, int maxIndexCount, InstantSource clock) {
        IndexService service = new IndexService(directory, hashSlots, maxIndexCount, clock);
        try {
            Files.createDirectories(directory);
            try (Stream<Path> found = Files.list(directory)) {
                for (Path file : found.sorted().toList()) {
                    service.files.add(IndexFile.open(file, hashSlots, maxIndexCount));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open index directory " + directory, e);
        }
        IndexFile last = service.last();
        if (last != null && !last.isEmpty()) {
            service.indexedUpTo = last.endPhyOffset();
        }
        return service;
    }

    /**
     * Records at or below {@code offset} count as indexed; recovery lowers it to where index entries are known
     * durable and below the CommitLog's end, so re-dispatched records get indexed again (duplicates are removed at
     * query time).
     */
    public void resumeAfter(long offset) {
        indexedUpTo = Math.min(indexedUpTo, offset);
    }

    /** Indexes one record. Dispatcher only. */
    public void index(String topic, String properties, int sysFlag, long phyOffset, long storeTimestamp) {
        if (phyOffset <= indexedUpTo || (sysFlag & TRANSACTION_TYPE_MASK) == TRANSACTION_ROLLBACK) {
            return;
        }
        String uniqKey = MessageProperties.get(properties, MessageProperties.UNIQ_KEY);
        if (uniqKey != null && !uniqKey.isEmpty()) {
            put(topic + "#" + uniqKey, phyOffset, storeTimestamp);
        }
        for (String key : MessageProperties.keys(properties)) {
            put(topic + "#" + key, phyOffset, storeTimestamp);
        }
        String tags = MessageProperties.get(properties, MessageProperties.TAGS);
        if (tags != null && !tags.isEmpty()) {
            put(topic + "#T#" + tags, phyOffset, storeTimestamp);
        }
        indexedUpTo = phyOffset;
    }

    /**
     * Commit-log offsets indexed under {@code topic#key} with store time in [begin, end], newest first, without
     * duplicates, at most {@code maxCount}. Candidates only: hash collisions are possible. Any thread.
     */
    public List<Long> query(String topic, String key, int maxCount, long beginTimestamp, long endTimestamp) {
        String fullKey = topic + "#" + key;
        LinkedHashSet<Long> found = new LinkedHashSet<>();
        List<IndexFile> snapshot = new ArrayList<>(files);
        for (int i = snapshot.size() - 1; i >= 0 && found.size() < maxCount; i--) {
            IndexFile file = snapshot.get(i);
            if (file.overlaps(beginTimestamp, endTimestamp)) {
                List<Long> offsets = new ArrayList<>();
                file.query(fullKey, beginTimestamp, endTimestamp, maxCount * 2, offsets);
                for (Long offset : offsets) {
                    if (found.size() < maxCount) {
                        found.add(offset);
                    }
                }
            }
        }
        return new ArrayList<>(found);
    }

    public void flush() {
        for (IndexFile file : files) {
            file.flush();
        }
    }

    /** Deletes files whose last entry is below {@code commitLogMinOffset}, never the newest. Retention only. */
    public int deleteBelow(long commitLogMinOffset) {
        int deleted = 0;
        while (files.size() > 1 && files.get(0).endPhyOffset() < commitLogMinOffset) {
            IndexFile oldest = files.remove(0);
            oldest.delete();
            deleted++;
            log.info("deleted index file {}", oldest.file());
        }
        return deleted;
    }

    public int fileCount() {
        return files.size();
    }

    private void put(String key, long phyOffset, long storeTimestamp) {
        IndexFile file = last();
        if (file == null || file.isFull()) {
            file = create();
        }
        if (!file.put(key, phyOffset, storeTimestamp)) {
            throw new IllegalStateException("fresh index file " + file.file() + " refused an entry");
        }
    }

    private IndexFile create() {
        long nowMs = clock.millis();
        Path path = directory.resolve(FILE_NAME.format(Instant.ofEpochMilli(nowMs)));
        while (Files.exists(path)) {
            nowMs++;
            path = directory.resolve(FILE_NAME.format(Instant.ofEpochMilli(nowMs)));
        }
        IndexFile created = IndexFile.open(path, hashSlots, maxIndexCount);
        files.add(created);
        log.info("created index file {}", path);
        return created;
    }

    private IndexFile last() {
        return files.isEmpty() ? null : files.get(files.size() - 1);
    }
}
