package io.vrmq.benchmark.store;

import io.vrmq.store.FlushDiskType;
import io.vrmq.store.MessageStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
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

/**
 * The floor under {@link StoreAppendBenchmark}: the same record bytes (one real stored 1 KiB-body record, copied
 * out of a store) put sequentially into 1 GiB {@link MappedByteBuffer} files, rolling to a new file when full.
 * {@code mappedPut} never forces (the ASYNC_FLUSH comparison); {@code mappedPutForceEach} forces after every record
 * (what SYNC_FLUSH would cost without group commit).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseSerialGC"})
public class StoreMappedBaselineBenchmark {
    private static final int FILE_BYTES = 1024 * 1024 * 1024;

    @State(Scope.Thread)
    public static class MappedFile {
        Path dir;
        byte[] record;
        MappedByteBuffer buffer;
        int fileCount;

        @Setup(Level.Iteration)
        public void open() {
            dir = BenchStores.tempDir("vrmq-bench-mapped");
            record = sampleRecord();
            roll();
        }

        @TearDown(Level.Iteration)
        public void close() {
            BenchStores.delete(dir);
        }

        void put() {
            if (buffer.remaining() < record.length) {
                roll();
            }
            buffer.put(record);
        }

        void putAndForce() {
            put();
            buffer.force(buffer.position() - record.length, record.length);
        }

        private void roll() {
            Path file = dir.resolve(String.format("%020d", (long) fileCount++ * FILE_BYTES));
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
                 FileChannel channel = raf.getChannel()) {
                raf.setLength(FILE_BYTES);
                buffer = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static byte[] sampleRecord() {
            Path sampleDir = BenchStores.tempDir("vrmq-bench-sample");
            try (MessageStore store = BenchStores.open(sampleDir, FlushDiskType.ASYNC_FLUSH)) {
                long offset = store.append(BenchStores.message(0)).commitLogOffset();
                ByteBuffer stored = store.lookMessageByOffset(offset);
                byte[] bytes = new byte[stored.remaining()];
                stored.get(bytes);
                return bytes;
            } finally {
                BenchStores.delete(sampleDir);
            }
        }
    }

    @Benchmark
    public int mappedPut(MappedFile state) {
        state.put();
        return state.buffer.position();
    }

    @Benchmark
    public int mappedPutForceEach(MappedFile state) {
        state.putAndForce();
        return state.buffer.position();
    }
}
