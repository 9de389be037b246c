package io.vrmq.store.epoch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.rocketmq.common.utils.CheckpointFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The epoch file against RocketMQ 5.5.0's CheckpointFile: same text, same append rule, safer writes. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class EpochFileTest {
    /** Apache's own CheckpointFile with identity lines: what an Apache broker writes and reads. */
    private static CheckpointFile<String> apacheFile(Path file) {
        return new CheckpointFile<>(file.toString(), new CheckpointFile.CheckpointSerializer<>() {
            @Override
            public String toLine(String entry) {
                return entry;
            }

            @Override
            public String fromLine(String line) {
                return line;
            }
        });
    }

    @Test
    void writesTheTextApacheWritesAndReadsWhatApacheWrites(@TempDir Path dir) throws IOException {
        Path ours = dir.resolve("ours");
        EpochFile epochs = EpochFile.open(ours);
        assertTrue(epochs.append(7, 7000));
        assertTrue(epochs.append(8, 8000));
        Path theirs = dir.resolve("theirs");
        apacheFile(theirs).write(List.of("7-7000", "8-8000"));

        assertEquals(Files.readString(theirs), Files.readString(ours));
        assertEquals(List.of("7-7000", "8-8000"), apacheFile(ours).read());
        assertEquals(List.of(new EpochEntry(7, 7000, 8000), EpochEntry.open(8, 8000)),
            EpochFile.open(theirs).entries());
    }

    @Test
    void anEpochInWhichNothingWasWrittenIsKeptAndEndsWhereItStarts(@TempDir Path dir) {
        EpochFile epochs = EpochFile.open(dir.resolve("epochFileCheckpoint"));
        assertTrue(epochs.append(1, 0));
        assertTrue(epochs.append(2, 0), "a master elected before anything was written in epoch 1");

        assertEquals(List.of(new EpochEntry(1, 0, 0), EpochEntry.open(2, 0)),
            EpochFile.open(dir.resolve("epochFileCheckpoint")).entries());
        assertEquals(2, epochs.entryCovering(0).epoch());
    }

    @Test
    void appendNeedsAStrictlyLargerEpochAndNoSmallerStartOffset(@TempDir Path dir) {
        EpochFile epochs = EpochFile.open(dir.resolve("epochFileCheckpoint"));
        assertTrue(epochs.append(1, 0));
        assertFalse(epochs.append(1, 100), "same epoch");
        assertFalse(epochs.append(0, 100), "older epoch");
        assertTrue(epochs.append(3, 100));
        assertFalse(epochs.append(4, 99), "smaller start offset");
        assertEquals(List.of(new EpochEntry(1, 0, 100), EpochEntry.open(3, 100)), epochs.entries());
        assertEquals(3, epochs.lastEpoch());
        assertEquals(1, epochs.entryCovering(99).epoch());
        assertEquals(3, epochs.entryCovering(100).epoch());
        assertEquals(3, epochs.entryAfter(1).epoch());
        assertNull(epochs.entryAfter(3));
        assertEquals(List.of(new EpochEntry(1, 0, 100), EpochEntry.open(3, 100)),
            EpochFile.open(dir.resolve("epochFileCheckpoint")).entries(), "reopened");
    }

    @Test
    void theBackupHoldsThePreviousContentAndServesWhenTheMainFileIsDamaged(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("epochFileCheckpoint");
        EpochFile epochs = EpochFile.open(file);
        epochs.append(1, 0);
        String afterFirst = Files.readString(file);
        epochs.append(2, 500);
        assertEquals(afterFirst, Files.readString(dir.resolve("epochFileCheckpoint.bak")));

        Files.writeString(file, "2\n12345\n1-0\n2-500\n");   // CRC does not match
        assertEquals(List.of(EpochEntry.open(1, 0)), EpochFile.open(file).entries());
        Files.writeString(file, "2\n0\n1-0\n");                // fewer entries than counted
        assertEquals(List.of(EpochEntry.open(1, 0)), EpochFile.open(file).entries());
        Files.writeString(file, "2\n0\n1-0\n2-5x0\n");        // not a number
        assertEquals(List.of(EpochEntry.open(1, 0)), EpochFile.open(file).entries());
        Files.writeString(file, "2\n0\n1-0\n2-500\n");        // CRC 0: not checked
        assertEquals(2, EpochFile.open(file).lastEpoch());
    }

    @Test
    void bothFilesDamagedRefusesToOpen(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("epochFileCheckpoint");
        Files.writeString(file, "garbage");
        Files.writeString(dir.resolve("epochFileCheckpoint.bak"), "1\n");
        assertThrows(IllegalStateException.class, () -> EpochFile.open(file));
        Files.delete(dir.resolve("epochFileCheckpoint.bak"));
        assertThrows(IllegalStateException.class, () -> EpochFile.open(file));
    }

    @Test
    void aMissingFileIsAnEmptyListAndNothingIsWrittenUntilAChange(@TempDir Path dir) {
        EpochFile epochs = EpochFile.open(dir.resolve("epochFileCheckpoint"));
        assertTrue(epochs.isEmpty());
        assertEquals(-1, epochs.lastEpoch());
        assertNull(epochs.lastEntry());
        assertFalse(Files.exists(dir.resolve("epochFileCheckpoint")));
    }

    @Test
    void anEmptiedListIsWrittenAndStaysEmptyAfterReopen(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("epochFileCheckpoint");
        EpochFile epochs = EpochFile.open(file);
        epochs.append(1, 0);
        epochs.append(2, 300);
        assertTrue(epochs.truncateSuffixFromOffset(0));
        assertEquals("0\n0\n", Files.readString(file, StandardCharsets.UTF_8));
        assertTrue(EpochFile.open(file).isEmpty(), "RocketMQ would keep the old file and resurrect both entries");
    }

    @Test
    void suffixTruncationByOffsetAndByEpochReopensTheNewestEntry(@TempDir Path dir) {
        EpochFile epochs = EpochFile.open(dir.resolve("e"));
        epochs.append(1, 0);
        epochs.append(2, 100);
        epochs.append(4, 250);
        assertFalse(epochs.truncateSuffixFromOffset(251));
        assertTrue(epochs.truncateSuffixFromOffset(250));
        assertEquals(List.of(new EpochEntry(1, 0, 100), EpochEntry.open(2, 100)), epochs.entries());
        assertTrue(epochs.truncateSuffixFromEpoch(2));
        assertEquals(List.of(EpochEntry.open(1, 0)), epochs.entries());
        assertFalse(epochs.truncateSuffixFromEpoch(2));
        assertEquals(List.of(EpochEntry.open(1, 0)), EpochFile.open(dir.resolve("e")).entries());
    }

    @Test
    void prefixTruncationDropsEntriesEndingAtOrBelowTheMinOffsetButNeverTheNewest(@TempDir Path dir) {
        EpochFile epochs = EpochFile.open(dir.resolve("e"));
        epochs.append(1, 0);
        epochs.append(2, 100);
        epochs.append(3, 200);
        assertFalse(epochs.truncatePrefixBelow(99));
        assertTrue(epochs.truncatePrefixBelow(100));
        assertEquals(2, epochs.firstEntry().epoch());
        assertTrue(epochs.truncatePrefixBelow(1_000_000));
        assertEquals(List.of(EpochEntry.open(3, 200)), epochs.entries());
    }

    @Test
    void writesLeaveNoTemporaryFileBehind(@TempDir Path dir) throws IOException {
        EpochFile epochs = EpochFile.open(dir.resolve("epochFileCheckpoint"));
        for (int epoch = 1; epoch <= 5; epoch++) {
            epochs.append(epoch, epoch * 1000L);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("epochFileCheckpoint", "epochFileCheckpoint.bak"),
                files.map(path -> path.getFileName().toString()).sorted().toList());
        }
    }
}
