package io.vrmq.store.epoch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The epoch file of a controller-mode broker ({@code <storePathRootDir>/epochFileCheckpoint}, RocketMQ's
 * {@code EpochFileCache}): which master epoch wrote which range of the CommitLog. Text format in
 * {@link EpochFileFormat}; the previous content is kept in {@code <file>.bak}.
 *
 * <p>Rules (RocketMQ 5.5.0's, but one):
 * <ul>
 * <li>{@link #append} takes an entry only when its epoch is strictly larger than the newest entry's and its start
 * offset not smaller. RocketMQ also refuses an equal start offset, so a master elected before it wrote anything in the
 * previous epoch keeps labelling its writes with that older epoch; an old master that wrote unreplicated records in
 * that older epoch then finds the same (epoch, start) on the new master and keeps its own divergent bytes up to
 * min(its end, the new master's end). Kept here, the empty older epoch ends where it starts, so such a replica is
 * cut back to that start.</li>
 * <li>Suffix truncation by offset (entries starting at or after it go) and by epoch; prefix truncation drops entries
 * ending at or below the CommitLog's min offset once retention deleted their segments.</li>
 * </ul>
 * Deliberate differences: every change is written atomically (temp file, fsync, rename; the {@code .bak} likewise),
 * so a crash never leaves a torn file. An empty list IS written: RocketMQ skips writing an empty list, so after a
 * full truncation its old file survives and the dropped entries come back at the next start (a RocketMQ bug). A
 * valid main file is used even when it holds no entry; RocketMQ would then read the {@code .bak} instead, so an
 * Apache broker opening a store whose epochs we emptied would see the previous entries. The {@code .bak} is read
 * only when the main file is missing or damaged.
 *
 * <p>Thread-safe: every method synchronises on the file; readers get immutable snapshots. Writes do file I/O (a few
 * hundred bytes and two fsyncs): call them off event loops.
 */
public final class EpochFile {
    private static final Logger log = LoggerFactory.getLogger(EpochFile.class);

    private final Path file;
    private final Path backup;
    /** Epoch to start offset, ascending; the ends follow from the next entry. Guarded by this. */
    private final TreeMap<Integer, Long> starts = new TreeMap<>();
    private volatile List<EpochEntry> snapshot = List.of();

    private EpochFile(Path file) {
        this.file = file;
        this.backup = file.resolveSibling(file.getFileName() + ".bak");
    }

    /**
     * Reads {@code file} (creating nothing until the first change). A missing or damaged main file falls back to the
     * {@code .bak}; neither present means no entries. Throws {@link IllegalStateException} naming both files when
     * neither can be read: a human must look (the broker would otherwise forget which epochs it wrote).
     */
    public static EpochFile open(Path file) {
        EpochFile epochs = new EpochFile(file);
        epochs.load();
        return epochs;
    }

    public Path path() {
        return file;
    }

    /** Every entry, ascending; the newest ends at {@link EpochEntry#OPEN_END_OFFSET}. */
    public List<EpochEntry> entries() {
        return snapshot;
    }

    public boolean isEmpty() {
        return snapshot.isEmpty();
    }

    /** Epoch of the newest entry, -1 when there is none. */
    public int lastEpoch() {
        EpochEntry last = lastEntry();
        return last == null ? -1 : last.epoch();
    }

    /** The newest entry, or null. */
    public EpochEntry lastEntry() {
        List<EpochEntry> current = snapshot;
        return current.isEmpty() ? null : current.get(current.size() - 1);
    }

    /** The oldest entry, or null. */
    public EpochEntry firstEntry() {
        List<EpochEntry> current = snapshot;
        return current.isEmpty() ? null : current.get(0);
    }

    /** The entry of {@code epoch}, or null. */
    public EpochEntry entry(int epoch) {
        for (EpochEntry entry : snapshot) {
            if (entry.epoch() == epoch) {
                return entry;
            }
        }
        return null;
    }

    /** The entry whose range covers {@code offset}, or null. */
    public EpochEntry entryCovering(long offset) {
        for (EpochEntry entry : snapshot) {
            if (entry.covers(offset)) {
                return entry;
            }
        }
        return null;
    }

    /** The first entry with an epoch above {@code epoch}, or null. */
    public EpochEntry entryAfter(int epoch) {
        for (EpochEntry entry : snapshot) {
            if (entry.epoch() > epoch) {
                return entry;
            }
        }
        return null;
    }

    /**
     * Appends a new newest entry and writes the file. Refused (false, nothing changes) unless {@code epoch} is strictly
     * larger than the newest entry's and {@code startOffset} is not smaller (see the class comment).
     */
    public synchronized boolean append(int epoch, long startOffset) {
        if (startOffset < 0) {
            throw new IllegalArgumentException("epoch " + epoch + " start offset " + startOffset + " < 0");
        }
        if (!starts.isEmpty()) {
            int lastEpoch = starts.lastKey();
            long lastStart = starts.lastEntry().getValue();
            if (lastEpoch >= epoch || lastStart > startOffset) {
                log.info("epoch {} at {} not appended: the newest entry is epoch {} at {}", epoch, startOffset,
                    lastEpoch, lastStart);
                return false;
            }
        }
        TreeMap<Integer, Long> next = new TreeMap<>(starts);
        next.put(epoch, startOffset);
        commit(next);
        return true;
    }

    /** Drops entries starting at or after {@code offset} (the CommitLog was cut there). True if any went. */
    public synchronized boolean truncateSuffixFromOffset(long offset) {
        return removeIf(entry -> entry.startOffset() >= offset);
    }

    /** Drops entries of {@code epoch} and later. True if any went. */
    public synchronized boolean truncateSuffixFromEpoch(int epoch) {
        return removeIf(entry -> entry.epoch() >= epoch);
    }

    /**
     * Drops entries that end at or below {@code commitLogMinOffset} (their records were deleted by retention). The
     * newest entry never ends, so it always stays. True if any went.
     */
    public synchronized boolean truncatePrefixBelow(long commitLogMinOffset) {
        return removeIf(entry -> entry.endOffset() <= commitLogMinOffset);
    }

    @Override
    public String toString() {
        return file + " " + snapshot;
    }

    private boolean removeIf(Predicate<EpochEntry> doomed) {
        List<Integer> gone = new ArrayList<>();
        for (EpochEntry entry : snapshot) {
            if (doomed.test(entry)) {
                gone.add(entry.epoch());
            }
        }
        if (gone.isEmpty()) {
            return false;
        }
        TreeMap<Integer, Long> next = new TreeMap<>(starts);
        gone.forEach(next::remove);
        commit(next);
        return true;
    }

    /**
     * Writes {@code next}, then adopts and publishes it: the file is never behind what readers see, and a failed
     * write changes nothing.
     */
    private void commit(TreeMap<Integer, Long> next) {
        List<EpochEntry> entries = withEnds(next);
        write(EpochFileFormat.encode(entries));
        starts.clear();
        starts.putAll(next);
        snapshot = entries;
    }

    private void load() {
        List<EpochEntry> read = readMainOrBackup();
        for (EpochEntry entry : read) {
            starts.put(entry.epoch(), entry.startOffset());
        }
        snapshot = withEnds(starts);
    }

    private List<EpochEntry> readMainOrBackup() {
        String mainFault;
        try {
            return EpochFileFormat.decode(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException missing) {
            mainFault = "missing";
        } catch (IOException | IllegalArgumentException e) {
            mainFault = e.getMessage();
        }
        try {
            List<EpochEntry> fromBackup = EpochFileFormat.decode(Files.readString(backup, StandardCharsets.UTF_8));
            log.warn("epoch file {} unusable ({}); using its backup {}: {}", file, mainFault, backup, fromBackup);
            return fromBackup;
        } catch (NoSuchFileException missing) {
            if (!Files.exists(file)) {
                return List.of();   // a new store
            }
            throw new IllegalStateException("epoch file " + file + " is damaged (" + mainFault + ") and has no backup "
                + backup + ": fix or remove it by hand (removing makes this broker a fresh replica)");
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("epoch file " + file + " (" + mainFault + ") and its backup " + backup
                + " (" + e.getMessage() + ") are both damaged: fix or remove them by hand", e);
        }
    }

    /** Moves the current text to the backup, then the new text in place; each step whole or not at all. */
    private void write(String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            if (Files.exists(file)) {
                replaceAtomically(backup, Files.readAllBytes(file));
            }
            replaceAtomically(file, text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write epoch file " + file, e);
        }
    }

    private static void replaceAtomically(Path target, byte[] content) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(content);
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(target.toAbsolutePath().getParent());
    }

    /** Makes the rename durable (Linux: fsync of the directory). */
    private static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            log.debug("cannot fsync directory {}: {}", directory, e.getMessage());   // not supported everywhere
        }
    }

    private static List<EpochEntry> withEnds(TreeMap<Integer, Long> starts) {
        List<EpochEntry> entries = new ArrayList<>(starts.size());
        Long previousStart = null;
        int previousEpoch = 0;
        for (var entry : starts.entrySet()) {
            if (previousStart != null) {
                entries.add(new EpochEntry(previousEpoch, previousStart, Math.max(previousStart, entry.getValue())));
            }
            previousEpoch = entry.getKey();
            previousStart = entry.getValue();
        }
        if (previousStart != null) {
            entries.add(EpochEntry.open(previousEpoch, previousStart));
        }
        return Collections.unmodifiableList(entries);
    }
}
