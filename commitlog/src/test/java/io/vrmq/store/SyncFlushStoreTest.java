package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SyncFlushStoreTest {

    @Test
    void syncFlushFuturesCompleteOnlyOnceTheirBytesAreForced(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir, FlushDiskType.SYNC_FLUSH))) {
            List<AppendResult> results = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                results.add(store.append(TestStores.message("Sync", 0, i, "t")));
            }
            for (AppendResult result : results) {
                assertEquals(FlushStatus.FLUSH_OK, result.durability().get(10, TimeUnit.SECONDS));
                assertTrue(store.stats().commitLogFlushedOffset() >= result.commitLogOffset() + result.sizeBytes());
            }
            assertTrue(store.stats().forceCount() >= 1);
        }
    }
}
