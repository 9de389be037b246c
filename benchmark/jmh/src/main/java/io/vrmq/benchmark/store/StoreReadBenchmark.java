package io.vrmq.benchmark.store;

import io.vrmq.store.FlushDiskType;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TagFilter;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Read by queue offset: batches of 32 messages (as a pull asks), walking a queue of 1 KiB messages that are in the
 * page cache; ops/s = messages/s. Includes the per-record CRC check that keeps damaged records from being served.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseSerialGC"})
public class StoreReadBenchmark {
    static final int MESSAGES = 100_000;
    static final int BATCH = 32;

    @State(Scope.Thread)
    public static class FilledStore {
        Path dir;
        MessageStore store;
        long next;

        @Setup(Level.Trial)
        public void fill() throws InterruptedException {
            dir = BenchStores.tempDir("vrmq-bench-read");
            store = BenchStores.open(dir, FlushDiskType.ASYNC_FLUSH);
            for (int i = 0; i < MESSAGES; i++) {
                store.append(BenchStores.message(0));
            }
            while (store.getMaxOffsetInQueue(BenchStores.TOPIC, 0) < MESSAGES) {
                Thread.onSpinWait();   // set-up only: wait for the dispatcher to catch up
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            store.close();
            BenchStores.delete(dir);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int readByQueueOffset(FilledStore state) {
        GetMessageResult result = state.store.getMessages(BenchStores.TOPIC, 0, state.next, BATCH, 256 * 1024,
                TagFilter.ALL);
        if (result.status() != GetMessageStatus.FOUND) {
            throw new IllegalStateException("read at " + state.next + ": " + result.status());
        }
        state.next = result.nextBeginOffset() >= MESSAGES ? 0 : result.nextBeginOffset();
        return result.totalBytes();
    }
}
