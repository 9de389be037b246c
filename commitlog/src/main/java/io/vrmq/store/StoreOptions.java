package io.vrmq.store;

import io.vrmq.store.dispatch.TagsCodeFunction;
import java.time.InstantSource;
import java.time.ZoneId;

/**
 * What a store takes besides its config: time, the zone of {@code deleteWhen}, the disk probe and the tagsCode rule.
 * Tests pass a fixed clock or disk probe here.
 */
public record StoreOptions(InstantSource clock, ZoneId zone, DiskUsageProbe disk, TagsCodeFunction tagsCodes) {
    public static StoreOptions defaults() {
        return new StoreOptions(InstantSource.system(), ZoneId.systemDefault(), DiskUsageProbe.fileStore(),
                TagsCodeFunction.tagHash());
    }

    public StoreOptions withClock(InstantSource newClock) {
        return new StoreOptions(newClock, zone, disk, tagsCodes);
    }

    public StoreOptions withZone(ZoneId newZone) {
        return new StoreOptions(clock, newZone, disk, tagsCodes);
    }

    public StoreOptions withDisk(DiskUsageProbe newDisk) {
        return new StoreOptions(clock, zone, newDisk, tagsCodes);
    }

    public StoreOptions withTagsCodes(TagsCodeFunction newTagsCodes) {
        return new StoreOptions(clock, zone, disk, newTagsCodes);
    }
}
