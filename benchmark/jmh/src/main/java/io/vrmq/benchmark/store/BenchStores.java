package io.vrmq.benchmark.store;

import io.vrmq.store.FlushDiskType;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.StoreConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/** Store set-up shared by the store benchmarks: RocketMQ's default sizes, a fresh temp directory per store. */
final class BenchStores {
    static final int BODY_BYTES = 1024;
    static final String TOPIC = "BenchTopic";
    static final String PROPERTIES = "TAGS\u0001bench\u0002UNIQ_KEY\u00017F0000010001000000000000000000\u0002";

    private BenchStores() {
    }

    static MessageStore open(Path dir, FlushDiskType flushDiskType) {
        return MessageStore.open(StoreConfig.from(Map.of(
                "storePathRootDir", dir.toString(),
                "flushDiskType", flushDiskType.name(),
                // 1 GiB segments as in production, small index files: the benchmark is about the CommitLog.
                "maxIndexHashSlots", 100_000,
                "maxIndexCount", 400_000)));
    }

    static MessageToStore message(int queueId) {
        return new MessageToStore(TOPIC, queueId, 0, new byte[BODY_BYTES], PROPERTIES, 0, System.currentTimeMillis(),
                new InetSocketAddress("127.0.0.1", 50000), 0, 0);
    }

    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
