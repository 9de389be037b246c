package io.vrmq.store.epoch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The text of RocketMQ's {@code epochFileCheckpoint} (its {@code CheckpointFile} format), Linux line ends:
 * <pre>
 *  line 1      number of entries
 *  line 2      CRC32 of the entry block (the entry lines with their '\n', UTF-8), masked with 0x7FFFFFFF;
 *              0 means "do not check"
 *  line 3..    one entry per line, ascending: {@code <epoch>-<startOffset>}
 * </pre>
 * Example: {@code "2\n773307083\n7-7000\n8-8000\n"}. End offsets are not stored: an entry ends where the next one
 * begins. Stateless.
 */
final class EpochFileFormat {
    /** A stored CRC of 0 is not checked (RocketMQ's NOT_CHECK_CRC_MAGIC_CODE). */
    static final int UNCHECKED_CRC = 0;
    private static final char SEPARATOR = '-';
    private static final char LINE_END = '\n';

    private EpochFileFormat() {
    }

    /** The file text of {@code entries} (epoch and start offset of each; ends are ignored). */
    static String encode(List<EpochEntry> entries) {
        StringBuilder block = new StringBuilder();
        for (EpochEntry entry : entries) {
            block.append(entry.epoch()).append(SEPARATOR).append(entry.startOffset()).append(LINE_END);
        }
        String entryBlock = block.toString();
        return entries.size() + "" + LINE_END + crc(entryBlock) + LINE_END + entryBlock;
    }

    /**
     * Parses a file's text into open-ended entries (epoch, start offset). Throws {@link IllegalArgumentException}
     * naming the fault when the text is not a whole, intact file: count or CRC lines missing or not numbers, a line
     * that is not {@code <epoch>-<startOffset>}, fewer or more entries than counted, CRC mismatch.
     */
    static List<EpochEntry> decode(String text) {
        String[] lines = text.split("\r?\n", -1);
        int lineCount = lines.length;
        if (lineCount > 0 && lines[lineCount - 1].isEmpty()) {
            lineCount--;   // the text ends with a line end
        }
        if (lineCount < 2) {
            throw new IllegalArgumentException("missing the count or CRC line");
        }
        int expectedCount = parseInt(lines[0], "entry count");
        int expectedCrc = parseInt(lines[1], "CRC");
        List<EpochEntry> entries = new ArrayList<>(Math.max(0, lineCount - 2));
        StringBuilder block = new StringBuilder();
        for (int i = 2; i < lineCount; i++) {
            entries.add(parseEntry(lines[i]));
            block.append(lines[i]).append(LINE_END);
        }
        if (entries.size() != expectedCount) {
            throw new IllegalArgumentException("counted " + expectedCount + " entries, found " + entries.size());
        }
        int actualCrc = crc(block.toString());
        if (expectedCrc != UNCHECKED_CRC && expectedCrc != actualCrc) {
            throw new IllegalArgumentException("entry block CRC " + actualCrc + " != stored " + expectedCrc);
        }
        return entries;
    }

    /** CRC32 of the UTF-8 bytes, masked to a non-negative int (RocketMQ's UtilAll.crc32). */
    static int crc(String entryBlock) {
        CRC32 crc32 = new CRC32();
        crc32.update(entryBlock.getBytes(StandardCharsets.UTF_8));
        return (int) (crc32.getValue() & 0x7FFFFFFF);
    }

    private static EpochEntry parseEntry(String line) {
        int separator = line.indexOf(SEPARATOR);
        if (separator <= 0 || separator != line.lastIndexOf(SEPARATOR)) {
            throw new IllegalArgumentException("entry line '" + line + "' is not <epoch>-<startOffset>");
        }
        int epoch = parseInt(line.substring(0, separator), "epoch");
        long startOffset;
        try {
            startOffset = Long.parseLong(line.substring(separator + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("entry line '" + line + "' has no start offset number");
        }
        if (startOffset < 0) {
            throw new IllegalArgumentException("entry line '" + line + "' has a negative start offset");
        }
        return EpochEntry.open(epoch, startOffset);
    }

    private static int parseInt(String text, String what) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " line '" + text + "' is not a number");
        }
    }
}
