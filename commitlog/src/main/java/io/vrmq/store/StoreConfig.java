package io.vrmq.store;

import io.vrmq.store.queue.ReservedOffsets;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;

/**
 * Settings of one store; keys reuse RocketMQ's names where one exists. Immutable, validated on construction:
 * a bad value throws {@link IllegalArgumentException} naming the setting and the value.
 *
 * @param storePathRootDir            directory holding commitlog/, consumequeue/, index/, checkpoint, abort, lock
 * @param mappedFileSizeCommitLog     bytes per commit-log segment file (RocketMQ default 1 GiB)
 * @param mappedFileSizeConsumeQueue  bytes per consume-queue file, a multiple of the 20-byte entry
 * @param flushDiskType               ASYNC_FLUSH or SYNC_FLUSH
 * @param flushIntervalCommitLogMs    ASYNC_FLUSH: how often the flusher looks for dirty pages
 * @param flushCommitLogLeastPages    ASYNC_FLUSH: force only when at least this many 4 KiB pages are dirty...
 * @param flushCommitLogThoroughIntervalMs ...or when this long has passed since the last force of everything
 * @param flushIntervalConsumeQueueMs how often consume queues and index files are forced and the checkpoint written
 * @param flushConsumeQueueLeastPages a round forces a consume queue only when at least this many 4 KiB pages of it
 *                                    are unforced (RocketMQ's rule, default 2; 0: every round forces every queue)...
 * @param flushConsumeQueueThoroughIntervalMs ...or when this long has passed since a round forced every queue
 *                                    (RocketMQ's 60 s). A queue left unforced holds the checkpoint's dispatched
 *                                    offset below its oldest unforced entry, so recovery re-dispatches from there.
 *                                    Why: with thousands of queues each written a little, forcing each every second
 *                                    is thousands of msyncs a second, and the dispatcher's first writes into new
 *                                    queue files wait behind them (the scale table's held row)
 * @param syncFlushTimeoutMs          SYNC_FLUSH: a durability future not forced in time reports FLUSH_DISK_TIMEOUT
 * @param maxMessageSize              largest body accepted, bytes (RocketMQ default 4 MiB)
 * @param maxFilterMessageCount       most consume-queue entries one read scans when a tag filter rejects them
 * @param fileReservedTimeHours       segments older than this are deleted at {@code deleteWhen}
 * @param deleteWhen                  hours of day (00-23, several joined by ';') when old segments may be deleted
 * @param diskMaxUsedSpaceRatio       percent of the disk in use past which the oldest segments go regardless of age
 * @param diskCriticalRatio           percent past which the store refuses appends (read-only) until space frees
 * @param retentionCheckIntervalMs    how often retention and disk use are checked
 * @param maxIndexHashSlots           hash slots per index file (RocketMQ default 5,000,000)
 * @param maxIndexCount               entries per index file (RocketMQ default 20,000,000)
 * @param storeHost                   address written as STOREHOST in every record and used in offset msg ids
 * @param accessMessageInMemoryMaxRatio percent of physical memory behind the CommitLog's max offset that reads count
 *                                    as page-cache hits; older records count as disk reads and a read ending there
 *                                    suggests pulling from a slave (RocketMQ's rule, default 40)
 * @param reservedOffsetBlockMax      ASYNC_FLUSH: most queue offsets one durable reservation covers ahead of a busy
 *                                    queue, so the most offsets a machine crash can leave blank in one queue (ours)
 * @param reservedOffsetFileMaxBytes  size past which the reserved offsets log is compacted (ours)
 * @param renewReservedOffsetsAhead   ASYNC_FLUSH: a queue past half of its reserved block is renewed on the
 *                                    store's reserver thread, so the writer does not wait for that force (ours,
 *                                    default true; false: the writer writes every renewal when the queue reaches its
 *                                    bound, as before)
 * @param reservedOffsetSeedMaxQueues ASYNC_FLUSH: most queues the store knows ahead of their first message (the
 *                                    broker's topic table), so that one forced bound covers them all; counted with
 *                                    every queue the store knows. Each costs a live bound in the reserved offsets
 *                                    file (about 14 bytes + topic name): keep the total well below
 *                                    reservedOffsetFileMaxBytes. 0: none, every queue's first append writes its own
 *                                    bound (ours)
 */
public record StoreConfig(
        Path storePathRootDir,
        int mappedFileSizeCommitLog,
        int mappedFileSizeConsumeQueue,
        FlushDiskType flushDiskType,
        long flushIntervalCommitLogMs,
        int flushCommitLogLeastPages,
        long flushCommitLogThoroughIntervalMs,
        long flushIntervalConsumeQueueMs,
        int flushConsumeQueueLeastPages,
        long flushConsumeQueueThoroughIntervalMs,
        long syncFlushTimeoutMs,
        int maxMessageSize,
        int maxFilterMessageCount,
        int fileReservedTimeHours,
        String deleteWhen,
        int diskMaxUsedSpaceRatio,
        int diskCriticalRatio,
        long retentionCheckIntervalMs,
        int maxIndexHashSlots,
        int maxIndexCount,
        InetSocketAddress storeHost,
        int accessMessageInMemoryMaxRatio,
        long reservedOffsetBlockMax,
        long reservedOffsetFileMaxBytes,
        boolean renewReservedOffsetsAhead,
        int reservedOffsetSeedMaxQueues) {

    /** Bytes of one ConsumeQueue entry; file sizes must be a multiple of it. */
    public static final int CONSUME_QUEUE_ENTRY_BYTES = 20;
    /** 1,000,000 seeded queues hold at least 15 MB of live bounds: far past any sensible reserved offsets file. */
    static final int MAX_SEEDED_QUEUES = 1_000_000;
    /** Record header, both hosts IPv6, topic and properties lengths, without body, topic or properties. */
    static final int MAX_RECORD_FIXED_BYTES = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + 20 + 8 + 20 + 4 + 8 + 4 + 2 + 2;
    /** The blank filler that ends a segment needs this much room after the last record. */
    static final int SEGMENT_END_RESERVE_BYTES = 8;

    public StoreConfig {
        require(storePathRootDir != null, "storePathRootDir", storePathRootDir);
        require(mappedFileSizeCommitLog >= 4096, "mappedFileSizeCommitLog", mappedFileSizeCommitLog);
        require(mappedFileSizeConsumeQueue >= CONSUME_QUEUE_ENTRY_BYTES
                && mappedFileSizeConsumeQueue % CONSUME_QUEUE_ENTRY_BYTES == 0,
                "mappedFileSizeConsumeQueue (a positive multiple of 20)", mappedFileSizeConsumeQueue);
        require(flushDiskType != null, "flushDiskType", flushDiskType);
        require(flushIntervalCommitLogMs > 0, "flushIntervalCommitLogMs", flushIntervalCommitLogMs);
        require(flushCommitLogLeastPages >= 0, "flushCommitLogLeastPages", flushCommitLogLeastPages);
        require(flushCommitLogThoroughIntervalMs > 0, "flushCommitLogThoroughIntervalMs",
                flushCommitLogThoroughIntervalMs);
        require(flushIntervalConsumeQueueMs > 0, "flushIntervalConsumeQueueMs", flushIntervalConsumeQueueMs);
        require(flushConsumeQueueLeastPages >= 0, "flushConsumeQueueLeastPages", flushConsumeQueueLeastPages);
        require(flushConsumeQueueThoroughIntervalMs > 0, "flushConsumeQueueThoroughIntervalMs",
                flushConsumeQueueThoroughIntervalMs);
        require(syncFlushTimeoutMs > 0, "syncFlushTimeoutMs", syncFlushTimeoutMs);
        require(maxMessageSize > 0, "maxMessageSize", maxMessageSize);
        // A message of the largest size must fit one segment with the filler reserve, or it could never be stored.
        require((long) maxMessageSize + MAX_RECORD_FIXED_BYTES + SEGMENT_END_RESERVE_BYTES <= mappedFileSizeCommitLog,
                "maxMessageSize (must fit one mappedFileSizeCommitLog=" + mappedFileSizeCommitLog + " segment)",
                maxMessageSize);
        require(maxFilterMessageCount > 0, "maxFilterMessageCount", maxFilterMessageCount);
        require(fileReservedTimeHours > 0, "fileReservedTimeHours", fileReservedTimeHours);
        require(deleteWhen != null && DeleteHours.parse(deleteWhen) != null, "deleteWhen", deleteWhen);
        require(diskMaxUsedSpaceRatio >= 10 && diskMaxUsedSpaceRatio <= 95, "diskMaxUsedSpaceRatio",
                diskMaxUsedSpaceRatio);
        require(diskCriticalRatio > diskMaxUsedSpaceRatio && diskCriticalRatio <= 99,
                "diskCriticalRatio (must exceed diskMaxUsedSpaceRatio=" + diskMaxUsedSpaceRatio + ")",
                diskCriticalRatio);
        require(retentionCheckIntervalMs > 0, "retentionCheckIntervalMs", retentionCheckIntervalMs);
        require(maxIndexHashSlots > 0, "maxIndexHashSlots", maxIndexHashSlots);
        require(maxIndexCount > 1, "maxIndexCount", maxIndexCount);
        // IndexFile size is an int: 40 + slots * 4 + count * 20 must stay below 2 GiB.
        require(40L + maxIndexHashSlots * 4L + maxIndexCount * 20L < Integer.MAX_VALUE,
                "maxIndexHashSlots/maxIndexCount (index file over 2 GiB)", maxIndexHashSlots + "/" + maxIndexCount);
        require(storeHost != null && !storeHost.isUnresolved(), "storeHost", storeHost);
        require(accessMessageInMemoryMaxRatio >= 0 && accessMessageInMemoryMaxRatio <= 100,
                "accessMessageInMemoryMaxRatio (percent, 0..100)", accessMessageInMemoryMaxRatio);
        require(reservedOffsetBlockMax >= ReservedOffsets.INITIAL_BLOCK && reservedOffsetBlockMax <= 1L << 30,
                "reservedOffsetBlockMax (" + ReservedOffsets.INITIAL_BLOCK + ".." + (1L << 30) + ")",
                reservedOffsetBlockMax);
        require(reservedOffsetFileMaxBytes >= 64 * 1024 && reservedOffsetFileMaxBytes <= 1L << 30,
                "reservedOffsetFileMaxBytes (64 KiB..1 GiB)", reservedOffsetFileMaxBytes);
        require(reservedOffsetSeedMaxQueues >= 0 && reservedOffsetSeedMaxQueues <= MAX_SEEDED_QUEUES,
                "reservedOffsetSeedMaxQueues (0.." + MAX_SEEDED_QUEUES + ")", reservedOffsetSeedMaxQueues);
    }

    /** RocketMQ's defaults, rooted at {@code root}, store host 127.0.0.1:10911. */
    public static StoreConfig defaults(Path root) {
        return from(Map.of("storePathRootDir", root.toString()));
    }

    /**
     * Builds a config from plain values (as parsed from broker JSON): missing keys take RocketMQ's defaults, except
     * storePathRootDir, which is required. storeHost is "host:port".
     */
    public static StoreConfig from(Map<String, ?> values) {
        ConfigValues v = new ConfigValues(values);
        return new StoreConfig(
                v.path("storePathRootDir"),
                v.integer("mappedFileSizeCommitLog", 1024 * 1024 * 1024),
                v.integer("mappedFileSizeConsumeQueue", 300_000 * CONSUME_QUEUE_ENTRY_BYTES),
                FlushDiskType.valueOf(v.string("flushDiskType", FlushDiskType.ASYNC_FLUSH.name())),
                v.longValue("flushIntervalCommitLogMs", 500),
                v.integer("flushCommitLogLeastPages", 4),
                v.longValue("flushCommitLogThoroughIntervalMs", 10_000),
                v.longValue("flushIntervalConsumeQueueMs", 1_000),
                v.integer("flushConsumeQueueLeastPages", 2),
                v.longValue("flushConsumeQueueThoroughIntervalMs", 60_000),
                v.longValue("syncFlushTimeoutMs", 5_000),
                v.integer("maxMessageSize", 4 * 1024 * 1024),
                v.integer("maxFilterMessageCount", 16_000),
                v.integer("fileReservedTimeHours", 72),
                v.string("deleteWhen", "04"),
                v.integer("diskMaxUsedSpaceRatio", 75),
                v.integer("diskCriticalRatio", 90),
                v.longValue("retentionCheckIntervalMs", 10_000),
                v.integer("maxIndexHashSlots", 5_000_000),
                v.integer("maxIndexCount", 20_000_000),
                v.address("storeHost", "127.0.0.1:10911"),
                v.integer("accessMessageInMemoryMaxRatio", 40),
                v.longValue("reservedOffsetBlockMax", 65_536),
                v.longValue("reservedOffsetFileMaxBytes", 4L * 1024 * 1024),
                v.bool("renewReservedOffsetsAhead", true),
                v.integer("reservedOffsetSeedMaxQueues", 20_000));
    }

    /** A copy with one value replaced by name, for tests and overrides; same validation. */
    public StoreConfig with(String key, Object value) {
        Map<String, Object> values = toMap();
        values.put(key, value);
        return from(values);
    }

    /** The values by their config key; {@code from(toMap())} equals this config. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new java.util.HashMap<>();
        m.put("storePathRootDir", storePathRootDir.toString());
        m.put("mappedFileSizeCommitLog", mappedFileSizeCommitLog);
        m.put("mappedFileSizeConsumeQueue", mappedFileSizeConsumeQueue);
        m.put("flushDiskType", flushDiskType.name());
        m.put("flushIntervalCommitLogMs", flushIntervalCommitLogMs);
        m.put("flushCommitLogLeastPages", flushCommitLogLeastPages);
        m.put("flushCommitLogThoroughIntervalMs", flushCommitLogThoroughIntervalMs);
        m.put("flushIntervalConsumeQueueMs", flushIntervalConsumeQueueMs);
        m.put("flushConsumeQueueLeastPages", flushConsumeQueueLeastPages);
        m.put("flushConsumeQueueThoroughIntervalMs", flushConsumeQueueThoroughIntervalMs);
        m.put("syncFlushTimeoutMs", syncFlushTimeoutMs);
        m.put("maxMessageSize", maxMessageSize);
        m.put("maxFilterMessageCount", maxFilterMessageCount);
        m.put("fileReservedTimeHours", fileReservedTimeHours);
        m.put("deleteWhen", deleteWhen);
        m.put("diskMaxUsedSpaceRatio", diskMaxUsedSpaceRatio);
        m.put("diskCriticalRatio", diskCriticalRatio);
        m.put("retentionCheckIntervalMs", retentionCheckIntervalMs);
        m.put("maxIndexHashSlots", maxIndexHashSlots);
        m.put("maxIndexCount", maxIndexCount);
        m.put("storeHost", storeHost.getAddress().getHostAddress() + ":" + storeHost.getPort());
        m.put("accessMessageInMemoryMaxRatio", accessMessageInMemoryMaxRatio);
        m.put("reservedOffsetBlockMax", reservedOffsetBlockMax);
        m.put("reservedOffsetFileMaxBytes", reservedOffsetFileMaxBytes);
        m.put("renewReservedOffsetsAhead", renewReservedOffsetsAhead);
        m.put("reservedOffsetSeedMaxQueues", reservedOffsetSeedMaxQueues);
        return m;
    }

    /** Hours of the day at which time-based deletion may run. */
    public java.util.Set<Integer> deleteHours() {
        return DeleteHours.parse(deleteWhen);
    }

    private static void require(boolean valid, String setting, Object value) {
        if (!valid) {
            throw new IllegalArgumentException("invalid store setting " + setting + ": " + value);
        }
    }
}
