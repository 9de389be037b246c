package io.vrmq.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/** How full the disk holding the store is; a function so that a test can pass a fixed value. */
@FunctionalInterface
public interface DiskUsageProbe {
    /** Percent of the disk in use, 0..100. */
    double usedPercent(Path storeRoot);

    /** Usable bytes left on the disk. */
    default long usableBytes(Path storeRoot) {
        try {
            return Files.getFileStore(storeRoot).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stat disk of " + storeRoot, e);
        }
    }

    /** The real disk, via {@link FileStore}. */
    static DiskUsageProbe fileStore() {
        return root -> {
            try {
                FileStore store = Files.getFileStore(root);
                long total = store.getTotalSpace();
                return total == 0 ? 0 : 100.0 * (total - store.getUsableSpace()) / total;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot stat disk of " + root, e);
            }
        };
    }
}
