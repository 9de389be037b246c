package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreConfigTest {

    @Test
    void defaultsAreRocketMqs(@TempDir Path dir) {
        StoreConfig config = StoreConfig.defaults(dir);
        assertEquals(1024 * 1024 * 1024, config.mappedFileSizeCommitLog());
        assertEquals(300_000 * 20, config.mappedFileSizeConsumeQueue());
        assertEquals(FlushDiskType.ASYNC_FLUSH, config.flushDiskType());
        assertEquals(500, config.flushIntervalCommitLogMs());
        assertEquals(4, config.flushCommitLogLeastPages());
        assertEquals(4 * 1024 * 1024, config.maxMessageSize());
        assertEquals(72, config.fileReservedTimeHours());
        assertEquals(Set.of(4), config.deleteHours());
        assertEquals(75, config.diskMaxUsedSpaceRatio());
        assertEquals(5_000_000, config.maxIndexHashSlots());
        assertEquals(20_000_000, config.maxIndexCount());
        assertEquals(config, StoreConfig.from(config.toMap()));
    }

    @Test
    void aBadValueIsRefusedWithTheSettingsNameAndValue(@TempDir Path dir) {
        StoreConfig config = TestStores.config(dir);
        IllegalArgumentException queueFile = assertThrows(IllegalArgumentException.class,
                () -> config.with("mappedFileSizeConsumeQueue", 1001));
        assertEquals("invalid store setting mappedFileSizeConsumeQueue (a positive multiple of 20): 1001",
                queueFile.getMessage());
        IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> config.with("maxMessageSize", 64 * 1024));
        assertEquals("invalid store setting maxMessageSize (must fit one mappedFileSizeCommitLog=65536 segment): 65536",
                tooBig.getMessage());
        assertThrows(IllegalArgumentException.class, () -> config.with("deleteWhen", "25"));
        assertThrows(IllegalArgumentException.class, () -> config.with("diskCriticalRatio", 70));
        assertThrows(IllegalArgumentException.class, () -> config.with("flushDiskType", "SOMETIMES"));
        assertThrows(IllegalArgumentException.class, () -> config.with("storeHost", "nohostport"));
        assertThrows(IllegalArgumentException.class, () -> StoreConfig.from(Map.of("maxMessageSize", "lots")));
    }

    @Test
    void accessMessageInMemoryMaxRatioDefaultsToRocketMqs40AndIsAPercent(@TempDir Path dir) {
        assertEquals(40, StoreConfig.defaults(dir).accessMessageInMemoryMaxRatio());
        StoreConfig config = TestStores.config(dir);
        assertEquals(0, config.with("accessMessageInMemoryMaxRatio", 0).accessMessageInMemoryMaxRatio());
        assertEquals(100, config.with("accessMessageInMemoryMaxRatio", "100").accessMessageInMemoryMaxRatio());
        IllegalArgumentException tooHigh = assertThrows(IllegalArgumentException.class,
                () -> config.with("accessMessageInMemoryMaxRatio", 101));
        assertEquals("invalid store setting accessMessageInMemoryMaxRatio (percent, 0..100): 101",
                tooHigh.getMessage());
        assertThrows(IllegalArgumentException.class, () -> config.with("accessMessageInMemoryMaxRatio", -1));
    }

    @Test
    void physicalMemoryComesFromTheMachineAndMustBePositive() {
        assertTrue(StoreOptions.defaults().physicalMemoryBytes() > 0);
        assertEquals(4096, StoreOptions.defaults().withPhysicalMemoryBytes(4096).physicalMemoryBytes());
        assertThrows(IllegalArgumentException.class, () -> StoreOptions.defaults().withPhysicalMemoryBytes(0));
    }

    @Test
    void aSecondStoreOnTheSameDirectoryIsRefused(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertThrows(RuntimeException.class, () -> MessageStore.open(TestStores.config(dir)));
        }
    }
}
