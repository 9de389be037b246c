package io.vrmq.store;

import io.vrmq.store.dispatch.TagsCodeFunction;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.function.BooleanSupplier;

/**
 * What a store takes besides its config: time, the zone of {@code deleteWhen}, the disk probe, the tagsCode rule and
 * the machine's physical memory (for RocketMQ's page-cache estimate, see {@code accessMessageInMemoryMaxRatio}).
 * Tests pass a fixed clock, disk probe or a tiny memory size here.
 *
 * @param physicalMemoryBytes total physical memory of the machine, bytes; positive
 * @param dispatchGatedByConfirmOffset the initial state of the confirm-offset gate (see
 *                            {@link MessageStore#setDispatchGatedByConfirmOffset}): controller mode without
 *                            readUnCommitted opens gated, so recovery builds ConsumeQueues only up to the confirm offset
 *                            kept in the checkpoint. Default false (classic roles).
 * @param isOpenCancelled polled by {@link MessageStore#open} while it recovers (between batches of records): once
 *                        true, open gives up with a {@link java.util.concurrent.CancellationException}, leaving the
 *                        store as a crash would (the next open recovers again). The broker passes "a stop was asked
 *                        for". Default never. Called on the opening thread; must be cheap.
 */
public record StoreOptions(InstantSource clock, ZoneId zone, DiskUsageProbe disk, TagsCodeFunction tagsCodes,
                           long physicalMemoryBytes, boolean dispatchGatedByConfirmOffset,
                           BooleanSupplier isOpenCancelled) {
    private static final BooleanSupplier NEVER = () -> false;

    public StoreOptions {
        if (physicalMemoryBytes <= 0) {
            throw new IllegalArgumentException("physicalMemoryBytes " + physicalMemoryBytes + " <= 0");
        }
    }

    public static StoreOptions defaults() {
        return new StoreOptions(InstantSource.system(), ZoneId.systemDefault(), DiskUsageProbe.fileStore(),
                TagsCodeFunction.tagHash(), totalPhysicalMemoryBytes(), false, NEVER);
    }

    public StoreOptions withClock(InstantSource newClock) {
        return new StoreOptions(newClock, zone, disk, tagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset,
                isOpenCancelled);
    }

    public StoreOptions withZone(ZoneId newZone) {
        return new StoreOptions(clock, newZone, disk, tagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset,
                isOpenCancelled);
    }

    public StoreOptions withDisk(DiskUsageProbe newDisk) {
        return new StoreOptions(clock, zone, newDisk, tagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset,
                isOpenCancelled);
    }

    public StoreOptions withTagsCodes(TagsCodeFunction newTagsCodes) {
        return new StoreOptions(clock, zone, disk, newTagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset,
                isOpenCancelled);
    }

    public StoreOptions withPhysicalMemoryBytes(long newPhysicalMemoryBytes) {
        return new StoreOptions(clock, zone, disk, tagsCodes, newPhysicalMemoryBytes, dispatchGatedByConfirmOffset,
                isOpenCancelled);
    }

    public StoreOptions withDispatchGatedByConfirmOffset(boolean gated) {
        return new StoreOptions(clock, zone, disk, tagsCodes, physicalMemoryBytes, gated, isOpenCancelled);
    }

    public StoreOptions withOpenCancelled(BooleanSupplier newIsOpenCancelled) {
        return new StoreOptions(clock, zone, disk, tagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset,
                newIsOpenCancelled);
    }

    /**
     * The machine's memory as the JDK reports it (RocketMQ reads the same bean). A JVM without the
     * {@code com.sun.management} extension gets Long.MAX_VALUE: every read then counts as a page-cache hit, which
     * keeps consumers on the master rather than guessing.
     */
    static long totalPhysicalMemoryBytes() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean extended && extended.getTotalMemorySize() > 0) {
            return extended.getTotalMemorySize();
        }
        return Long.MAX_VALUE;
    }
}
