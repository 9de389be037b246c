package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
    void aSecondStoreOnTheSameDirectoryIsRefused(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            assertThrows(RuntimeException.class, () -> MessageStore.open(TestStores.config(dir)));
        }
    }
}
