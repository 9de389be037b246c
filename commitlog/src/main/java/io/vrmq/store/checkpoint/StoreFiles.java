package io.vrmq.store.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The layout of a store directory, the {@code abort} marker (present while the store is open: found at start it
 * means the last run did not close cleanly) and the {@code lock} that keeps two stores off one directory.
 */
public final class StoreFiles {
    private final Path root;
    private FileChannel lockChannel;
    private FileLock lock;

    public StoreFiles(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    public Path commitLogDirectory() {
        return root.resolve("commitlog");
    }

    public Path consumeQueueDirectory() {
        return root.resolve("consumequeue");
    }

    public Path indexDirectory() {
        return root.resolve("index");
    }

    public Path checkpointFile() {
        return root.resolve("checkpoint");
    }

    /** See {@code io.vrmq.store.queue.ReservedOffsetsFile}. */
    public Path reservedOffsetsFile() {
        return root.resolve("reservedoffsets");
    }

    public Path abortFile() {
        return root.resolve("abort");
    }

    /** Takes the directory lock, or throws if another store (in any process) holds it. */
    public void lock() {
        try {
            Files.createDirectories(root);
            lockChannel = FileChannel.open(root.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = lockChannel.tryLock();
            if (lock == null) {
                lockChannel.close();
                throw new IllegalStateException("store directory " + root + " is locked by another process");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock store directory " + root, e);
        }
    }

    public void unlock() {
        try {
            if (lock != null) {
                lock.release();
                lockChannel.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release lock of " + root, e);
        }
    }

    public boolean wasAborted() {
        return Files.exists(abortFile());
    }

    public void createAbortFile() {
        try {
            Files.write(abortFile(), new byte[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + abortFile(), e);
        }
    }

    public void removeAbortFile() {
        try {
            Files.deleteIfExists(abortFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + abortFile(), e);
        }
    }
}
