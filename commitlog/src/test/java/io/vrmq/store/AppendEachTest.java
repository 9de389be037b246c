package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link MessageStore#appendEach}: many independent sends in one writer turn. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AppendEachTest {

    @Test
    void eachMessageGetsItsOwnConsecutiveQueueOffsetInListOrderAndIsReadBack(@TempDir Path dir) throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<MessageToStore> turn = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                turn.add(TestStores.message("Each", i % 2, i, "t"));
            }
            List<AppendResult> results = store.appendEach(turn);
            assertEquals(10, results.size());
            for (int i = 0; i < 10; i++) {
                assertEquals(AppendStatus.PUT_OK, results.get(i).status());
                assertEquals(i / 2, results.get(i).queueOffset(), "message " + i);
                assertEquals(1, results.get(i).messageCount());
            }
            for (int i = 1; i < 10; i++) {
                assertEquals(results.get(i - 1).commitLogOffset() + results.get(i - 1).sizeBytes(),
                        results.get(i).commitLogOffset(), "records follow each other in list order");
            }
            AppendAndReadTest.awaitDispatched(store, "Each", 1, 5);
            GetMessageResult read = store.getMessages("Each", 1, 0, 10, 1 << 20, TagFilter.ALL);
            assertEquals(5, read.messages().size());
            assertEquals("Each/1/3/" + "x".repeat(3), TestStores.bodyText(read.messages().get(1).record()));
        }
    }

    @Test
    void aRefusedMessageInTheTurnLeavesTheOthersStoredWithoutAGap(@TempDir Path dir) {
        try (MessageStore store = MessageStore.open(TestStores.config(dir))) {
            List<AppendResult> results = store.appendEach(List.of(TestStores.message("Each", 0, 0, "t"),
                    TestStores.sized("Each", 0, 17 * 1024), TestStores.message("Each", 0, 2, "t")));
            assertEquals(AppendStatus.PUT_OK, results.get(0).status());
            assertEquals(AppendStatus.MESSAGE_ILLEGAL, results.get(1).status());
            assertEquals(AppendStatus.PUT_OK, results.get(2).status());
            assertEquals(1, results.get(2).queueOffset(), "the refused message took no queue offset");
        }
    }

    @Test
    void underSyncFlushOneFlushWaiterCoversTheTurnAndCompletesOnlyOnceEveryRecordIsForced(@TempDir Path dir)
            throws Exception {
        try (MessageStore store = MessageStore.open(TestStores.config(dir, FlushDiskType.SYNC_FLUSH))) {
            for (int round = 0; round < 20; round++) {
                List<MessageToStore> turn = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    turn.add(TestStores.message("EachSync", i % 4, round * 16 + i, "t"));
                }
                List<AppendResult> results = store.appendEach(turn);
                AppendResult last = results.get(results.size() - 1);
                for (AppendResult result : results) {
                    assertSame(last.durability(), result.durability(), "one waiter per turn");
                }
                assertEquals(FlushStatus.FLUSH_OK, last.durability().get(10, TimeUnit.SECONDS));
                assertTrue(store.stats().commitLogFlushedOffset() >= last.commitLogOffset() + last.sizeBytes(),
                        "FLUSH_OK only once the turn's last byte is forced");
            }
        }
    }

    @Test
    void aClosedStoreRefusesEveryMessageOfTheTurn(@TempDir Path dir) {
        MessageStore store = MessageStore.open(TestStores.config(dir));
        store.close();
        List<AppendResult> results = store.appendEach(List.of(TestStores.message("Each", 0, 0, "t"),
                TestStores.message("Each", 0, 1, "t")));
        assertEquals(List.of(AppendStatus.SERVICE_NOT_AVAILABLE, AppendStatus.SERVICE_NOT_AVAILABLE),
                results.stream().map(AppendResult::status).toList());
    }
}
