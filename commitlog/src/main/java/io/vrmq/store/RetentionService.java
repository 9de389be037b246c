package io.vrmq.store;

import io.vrmq.store.commitlog.CommitLog;
import io.vrmq.store.index.IndexService;
import io.vrmq.store.queue.ConsumeQueue;
import io.vrmq.store.queue.ConsumeQueueTable;
import io.vrmq.store.segment.MappedSegment;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes old CommitLog segments and what points into them, and turns the store read-only when the disk is nearly
 * full.
 * <ul>
 * <li>At an hour listed in {@code deleteWhen} (local time of the clock's zone), segments last modified more than
 * {@code fileReservedTimeHours} ago are deleted, oldest first, at most {@link #MAX_DELETES_PER_RUN} per run.</li>
 * <li>Past {@code diskMaxUsedSpaceRatio} the oldest segment goes at every run whatever its age.</li>
 * <li>Past {@code diskCriticalRatio} appends are refused with SERVICE_NOT_AVAILABLE until use drops below it.</li>
 * <li>Never the segment being written. ConsumeQueue min offsets and index files follow the CommitLog's new min.</li>
 * </ul>
 * A deleted segment's disk space returns when its mapping is released (see {@code MappedSegment}). After a run that
 * deleted segments, the {@link #setMinOffsetListener min-offset listener} learns the new CommitLog min offset
 * (controller mode prunes its epoch file there).
 * Threads: {@link #runOnce} on the store's scheduler thread (one run at a time; {@link #excluding} runs a truncation
 * between runs); the flags are volatile.
 */
final class RetentionService {
    /** Bounds one run so that deleting a backlog does not stall the scheduler (RocketMQ deletes up to 10). */
    static final int MAX_DELETES_PER_RUN = 10;
    private static final Logger log = LoggerFactory.getLogger(RetentionService.class);

    private final StoreConfig config;
    private final CommitLog commitLog;
    private final ConsumeQueueTable queues;
    private final IndexService index;
    private final DiskUsageProbe disk;
    private final InstantSource clock;
    private final ZoneId zone;
    private final Set<Integer> deleteHours;
    private volatile boolean readOnly;
    private volatile double diskUsedPercent;
    private volatile LongConsumer minOffsetListener = minOffset -> {
    };

    RetentionService(StoreConfig config, CommitLog commitLog, ConsumeQueueTable queues, IndexService index,
                     DiskUsageProbe disk, InstantSource clock, ZoneId zone) {
        this.config = config;
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.disk = disk;
        this.clock = clock;
        this.zone = zone;
        this.deleteHours = config.deleteHours();
    }

    void setMinOffsetListener(LongConsumer listener) {
        this.minOffsetListener = listener;
    }

    /** Runs {@code task} while no retention run is in progress (segments must not go while a truncation checks). */
    synchronized void excluding(Runnable task) {
        task.run();
    }

    boolean isReadOnly() {
        return readOnly;
    }

    double diskUsedPercent() {
        return diskUsedPercent;
    }

    /** One check: disk state, then deletions. Returns how many segments were deleted. */
    synchronized int runOnce() {
        Path root = config.storePathRootDir();
        double used = disk.usedPercent(root);
        diskUsedPercent = used;
        updateReadOnly(used);
        boolean diskPressure = used >= config.diskMaxUsedSpaceRatio();
        Instant now = clock.instant();
        boolean deleteTime = deleteHours.contains(now.atZone(zone).getHour());
        long reservedMs = TimeUnit.HOURS.toMillis(config.fileReservedTimeHours());
        int deleted = 0;
        while (deleted < MAX_DELETES_PER_RUN) {
            MappedSegment[] segments = commitLog.segments().segments();
            if (segments.length < 2) {
                break;
            }
            boolean expired = now.toEpochMilli() - segments[0].lastModifiedMs() >= reservedMs;
            boolean forced = diskPressure && deleted == 0;
            if (!(deleteTime && expired) && !forced) {
                break;
            }
            MappedSegment gone = commitLog.deleteOldestSegment();
            deleted++;
            log.info("retention deleted commit log segment {} ({}; disk {}% used)", gone.file(),
                    forced && !(deleteTime && expired) ? "disk over diskMaxUsedSpaceRatio" : "expired",
                    Math.round(used));
        }
        if (deleted > 0) {
            long minOffset = commitLog.minOffset();
            for (ConsumeQueue queue : queues.all()) {
                queue.deleteBelow(minOffset);
            }
            index.deleteBelow(minOffset);
            notifyMinOffset(minOffset);
        }
        return deleted;
    }

    private void notifyMinOffset(long minOffset) {
        try {
            minOffsetListener.accept(minOffset);
        } catch (RuntimeException e) {
            log.error("min-offset listener failed at commit log min offset {}", minOffset, e);
        }
    }

    private void updateReadOnly(double used) {
        boolean critical = used >= config.diskCriticalRatio();
        if (critical && !readOnly) {
            log.error("disk {}% used >= diskCriticalRatio {}%: store is read-only until space frees", Math.round(used),
                    config.diskCriticalRatio());
        } else if (!critical && readOnly) {
            log.info("disk {}% used < diskCriticalRatio {}%: store accepts appends again", Math.round(used),
                    config.diskCriticalRatio());
        }
        readOnly = critical;
    }
}
