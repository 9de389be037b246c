package io.vrmq.broker.persist;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.CopyOptions;
import io.vertx.core.file.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One JSON state file of the broker (topics, subscription groups, consumer offsets, delay progress), written
 * atomically: a complete snapshot to {@code <file>.tmp}, then renamed over the file, so a crash leaves the old or
 * the new content, never half. Writes go through the Vert.x file system (never blocking an event loop) and are
 * chained one after another. A load ({@link #read(Function)}) reads and decodes on a worker: a large table (topics,
 * offsets) decoded on the event loop blocked it at start. Thread-safe.
 */
public final class JsonFile {
    private static final Logger log = LoggerFactory.getLogger(JsonFile.class);

    private final FileSystem fileSystem;
    private final String path;
    private Future<Void> lastWrite = Future.succeededFuture();

    public JsonFile(FileSystem fileSystem, String path) {
        this.fileSystem = fileSystem;
        this.path = path;
    }

    public String path() {
        return path;
    }

    /** The file's bytes, or null when it does not exist (a first start). */
    public Future<Buffer> read() {
        return fileSystem.exists(path).compose(exists -> exists ? fileSystem.readFile(path)
            : Future.succeededFuture(null));
    }

    /**
     * The file read and decoded by {@code decode} on a worker of the caller's context ({@code decode} gets null when
     * the file does not exist), completing on that context; outside Vert.x, through the file system as
     * {@link #read()}. What {@code decode} fills is handed over with the future: it may fill the caller's tables.
     */
    public <T> Future<T> read(Function<Buffer, T> decode) {
        Context context = Vertx.currentContext();
        if (context == null) {
            return read().map(decode);
        }
        return context.executeBlocking(() -> {
            Path file = Path.of(path);
            return decode.apply(Files.exists(file) ? Buffer.buffer(Files.readAllBytes(file)) : null);
        }, false);
    }

    /** Writes the snapshot taken now, after every earlier write. */
    public synchronized Future<Void> write(Supplier<Buffer> snapshot) {
        Buffer content = snapshot.get();
        lastWrite = lastWrite.transform(ignored -> writeNow(content));
        return lastWrite;
    }

    private Future<Void> writeNow(Buffer content) {
        String temp = path + ".tmp";
        return fileSystem.mkdirs(Path.of(path).toAbsolutePath().getParent().toString())
            .compose(ignored -> fileSystem.writeFile(temp, content))
            .compose(ignored -> fileSystem.move(temp, path,
                new CopyOptions().setReplaceExisting(true).setAtomicMove(true)))
            .onFailure(error -> log.error("could not write {}", path, error));
    }
}
