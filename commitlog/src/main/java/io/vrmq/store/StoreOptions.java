package io.vrmq.store;

import io.vrmq.store.dispatch.TagsCodeFunction;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.InstantSource;
import java.time.ZoneId;

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
 */
public record StoreOptions(InstantSource clock, ZoneId zone, DiskUsageProbe disk, TagsCodeFunction tagsCodes,
                           long physicalMemoryBytes, boolean dispatchGatedByConfirmOffset) {
    public StoreOptions {
        if (physicalMemoryBytes <= 0) {
            throw new IllegalArgumentException("physicalMemoryBytes " + physicalMemoryBytes + " <= 0");
        }
    }

    public static StoreOptions defaults() {
        return new StoreOptions(InstantSource.system(), ZoneId.systemDefault(), DiskUsageProbe.fileStore(),
                TagsCodeFunction.tagHash(), totalPhysicalMemoryBytes(), false);
    }

    public StoreOptions withClock(InstantSource newClock) {
        return new StoreOptions(newClock, zone, disk, tagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset);
    }

    public StoreOptions withZone(ZoneId newZone) {
        return new StoreOptions(clock, newZone, disk, tagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset);
    }

    public StoreOptions withDisk(DiskUsageProbe newDisk) {
        return new StoreOptions(clock, zone, newDisk, tagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset);
    }

    public StoreOptions withTagsCodes(TagsCodeFunction newTagsCodes) {
        return new StoreOptions(clock, zone, disk, newTagsCodes, physicalMemoryBytes, dispatchGatedByConfirmOffset);
    }

    public StoreOptions withPhysicalMemoryBytes(long newPhysicalMemoryBytes) {
        return new StoreOptions(clock, zone, disk, tagsCodes, newPhysicalMemoryBytes, dispatchGatedByConfirmOffset);
    }

    public StoreOptions withDispatchGatedByConfirmOffset(boolean gated) {
        return new StoreOptions(clock, zone, disk, tagsCodes, physicalMemoryBytes, gated);
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
