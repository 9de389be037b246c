package io.vrmq.benchmark.store;

import io.vrmq.store.AppendResult;
import io.vrmq.store.AppendStatus;
import io.vrmq.store.FlushDiskType;
import io.vrmq.store.FlushStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Appends in writer turns ({@link MessageStore#appendEach}), the broker's {@code batchAppendsPerWriterTurn}, beside
 * {@link StoreAppendBenchmark}'s one-task-per-append figures from the same run (ops/s = messages/s):
 * <ul>
 * <li>{@code appendEachAsync}: ASYNC_FLUSH, the benchmark thread is the writer and stores 32 messages per call
 * (compare with {@code appendAsync}: the store's own cost per message, one dispatcher wake-up per turn).</li>
 * <li>{@code turnWritersN}: SYNC_FLUSH; N threads queue their append and wait for its durability, one writer thread
 * drains the queue per turn as the broker's {@code WriterTurns} does (compare with {@code syncWritersN}, where every
 * append is its own writer task and its own flush waiter).</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseSerialGC"})
public class StoreTurnBenchmark {
    static final int MESSAGES_PER_CALL = 32;

    /** A fresh ASYNC_FLUSH store per iteration, appended to by the benchmark thread itself. */
    @State(Scope.Thread)
    public static class AsyncStore {
        Path dir;
        MessageStore store;
        final List<MessageToStore> turn = new ArrayList<>();

        @Setup(Level.Iteration)
        public void open() {
            dir = BenchStores.tempDir("vrmq-bench-turn-async");
            store = BenchStores.open(dir, FlushDiskType.ASYNC_FLUSH);
            for (int i = 0; i < MESSAGES_PER_CALL; i++) {
                turn.add(BenchStores.message(0));
            }
        }

        @TearDown(Level.Iteration)
        public void close() {
            store.close();
            BenchStores.delete(dir);
            turn.clear();
        }
    }

    /** A SYNC_FLUSH store and a writer that takes every queued append in one turn. Not the broker's code: its shape. */
    @State(Scope.Benchmark)
    public static class TurnStore {
        Path dir;
        MessageStore store;
        ExecutorService writer;
        final MessageToStore message = BenchStores.message(0);
        final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
        final AtomicBoolean isDrainScheduled = new AtomicBoolean();
        /** The broker's maxAppendsPerWriterTurn: a smaller turn lets the flusher start a force sooner. */
        @Param({"16", "256"})
        int maxAppendsPerTurn;

        record Pending(MessageToStore message, CompletableFuture<AppendResult> result) {
        }

        @Setup(Level.Iteration)
        public void open() {
            dir = BenchStores.tempDir("vrmq-bench-turn-sync");
            store = BenchStores.open(dir, FlushDiskType.SYNC_FLUSH);
            writer = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-turn-writer"));
        }

        @TearDown(Level.Iteration)
        public void close() throws InterruptedException {
            writer.shutdown();
            writer.awaitTermination(30, TimeUnit.SECONDS);
            store.close();
            BenchStores.delete(dir);
        }

        FlushStatus appendAndWait() {
            Pending pending = new Pending(message, new CompletableFuture<>());
            queue.add(pending);
            if (isDrainScheduled.compareAndSet(false, true)) {
                writer.execute(this::drain);
            }
            return pending.result().thenCompose(TurnStore::durability).join();
        }

        private void drain() {
            isDrainScheduled.set(false);
            List<Pending> turn = new ArrayList<>();
            Pending next;
            while ((next = queue.poll()) != null) {
                turn.add(next);
                if (turn.size() == maxAppendsPerTurn) {
                    store(turn);
                    turn = new ArrayList<>();
                }
            }
            store(turn);
        }

        private void store(List<Pending> turn) {
            if (turn.isEmpty()) {
                return;
            }
            List<MessageToStore> messages = new ArrayList<>(turn.size());
            turn.forEach(pending -> messages.add(pending.message()));
            List<AppendResult> results = store.appendEach(messages);
            for (int i = 0; i < turn.size(); i++) {
                turn.get(i).result().complete(results.get(i));
            }
        }

        private static CompletableFuture<FlushStatus> durability(AppendResult result) {
            if (result.status() != AppendStatus.PUT_OK) {
                throw new IllegalStateException(result.remark());
            }
            return result.durability();
        }
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES_PER_CALL)
    public long appendEachAsync(AsyncStore state) {
        List<AppendResult> results = state.store.appendEach(state.turn);
        AppendResult last = results.get(results.size() - 1);
        if (last.status() != AppendStatus.PUT_OK) {
            throw new IllegalStateException(last.remark());
        }
        return last.commitLogOffset();
    }

    @Benchmark
    @Threads(8)
    public FlushStatus turnWriters8(TurnStore state) {
        return state.appendAndWait();
    }

    @Benchmark
    @Threads(64)
    public FlushStatus turnWriters64(TurnStore state) {
        return state.appendAndWait();
    }
}
