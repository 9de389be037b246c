package io.vrmq.benchmark.store;

import io.vrmq.store.AppendResult;
import io.vrmq.store.AppendStatus;
import io.vrmq.store.FlushDiskType;
import io.vrmq.store.FlushStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Append throughput of 1 KiB messages (ops/s = messages/s). Compare with {@link StoreMappedBaselineBenchmark} from
 * the same run: the ratio is the figure.
 * <ul>
 * <li>{@code appendAsync}: ASYNC_FLUSH, the benchmark thread is the single writer.</li>
 * <li>{@code syncWritersN}: SYNC_FLUSH; N threads hand their append to the single writer thread (as the broker's
 * event loops hand them to the store worker) and wait for the durability future, so N appends can share one force
 * (group commit).</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseSerialGC"})
public class StoreAppendBenchmark {

    /** A fresh ASYNC_FLUSH store per iteration, appended to by the benchmark thread itself. */
    @State(Scope.Thread)
    public static class AsyncStore {
        Path dir;
        MessageStore store;
        final MessageToStore message = BenchStores.message(0);

        @Setup(Level.Iteration)
        public void open() {
            dir = BenchStores.tempDir("vrmq-bench-async");
            store = BenchStores.open(dir, FlushDiskType.ASYNC_FLUSH);
        }

        @TearDown(Level.Iteration)
        public void close() {
            store.close();
            BenchStores.delete(dir);
        }
    }

    /** A fresh SYNC_FLUSH store per iteration and the one writer thread that every benchmark thread hands to. */
    @State(Scope.Benchmark)
    public static class SyncStore {
        Path dir;
        MessageStore store;
        ExecutorService writer;
        final MessageToStore message = BenchStores.message(0);

        @Setup(Level.Iteration)
        public void open() {
            dir = BenchStores.tempDir("vrmq-bench-sync");
            store = BenchStores.open(dir, FlushDiskType.SYNC_FLUSH);
            writer = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-writer"));
        }

        @TearDown(Level.Iteration)
        public void close() throws InterruptedException {
            writer.shutdown();
            writer.awaitTermination(30, TimeUnit.SECONDS);
            store.close();
            BenchStores.delete(dir);
        }

        FlushStatus appendAndWait() {
            return CompletableFuture.supplyAsync(() -> store.append(message), writer)
                    .thenCompose(StoreAppendBenchmark::durability)
                    .join();
        }
    }

    @Benchmark
    public long appendAsync(AsyncStore state) {
        AppendResult result = state.store.append(state.message);
        if (result.status() != AppendStatus.PUT_OK) {
            throw new IllegalStateException(result.remark());
        }
        return result.commitLogOffset();
    }

    @Benchmark
    @Threads(1)
    public FlushStatus syncWriters1(SyncStore state) {
        return state.appendAndWait();
    }

    @Benchmark
    @Threads(8)
    public FlushStatus syncWriters8(SyncStore state) {
        return state.appendAndWait();
    }

    @Benchmark
    @Threads(64)
    public FlushStatus syncWriters64(SyncStore state) {
        return state.appendAndWait();
    }

    private static CompletableFuture<FlushStatus> durability(AppendResult result) {
        if (result.status() != AppendStatus.PUT_OK) {
            throw new IllegalStateException(result.remark());
        }
        return result.durability();
    }
}
