package io.vrmq.store.queue;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The {@code reservedoffsets} file: an append-only log of per-queue reserved offset bounds (see
 * {@link ReservedOffsets} for what a bound promises). Our own format (RocketMQ has no such file), big-endian:
 * <pre>
 *  file header
 *   offset  size  field
 *    0       4    magic        0x56524F42 ("VROB")
 *    4       4    version      1
 *  then records, each
 *    0       4    bodyBytes    bytes of body
 *    4       4    bodyCrc      CRC32 of body
 *    8       n    body         entries, each: 2 topicBytes (unsigned), topic (UTF-8), 4 queueId, 8 bound
 * </pre>
 * A later entry for a queue replaces an earlier one; a bound of 0 forgets the queue (its topic was deleted).
 *
 * <p>Every write is forced before it returns. A record is appended only after the one before it was forced, so a
 * crash can damage only the last record: a bad record that ends the file is a torn tail and is ignored (the bounds
 * it carried were never relied upon: no offset at or above them was handed out before the force returned). A bad
 * record followed by more bytes, a wrong header or an entry that does not fit its record is not something a crash
 * leaves: {@link #read} throws, naming the file. {@link #rewrite} replaces the file atomically (temporary file,
 * force, rename, force of the directory), so the file is never seen half-written.
 *
 * <p>Not thread-safe: its owner ({@link ReservedOffsets}) serialises every call.
 */
public final class ReservedOffsetsFile {
    public static final String FILE_NAME = "reservedoffsets";
    static final int MAGIC = 0x56524F42;
    static final int VERSION = 1;
    static final int HEADER_BYTES = 8;
    static final int RECORD_HEADER_BYTES = 8;
    static final int ENTRY_FIXED_BYTES = 2 + 4 + 8;

    /** One entry: {@code bound} 0 means "forget this queue". */
    public record Entry(String topic, int queueId, long bound) {
        int encodedBytes() {
            return ENTRY_FIXED_BYTES + topic.getBytes(StandardCharsets.UTF_8).length;
        }
    }

    /** What {@link #read} found: the bounds by topic and queue id, and whether the file existed. */
    public record Contents(Map<String, Map<Integer, Long>> bounds, boolean existed, boolean hadTornTail) {
    }

    private final Path file;
    private long sizeBytes;

    private ReservedOffsetsFile(Path file, long sizeBytes) {
        this.file = file;
        this.sizeBytes = sizeBytes;
    }

    /** Replaces {@code file} by one holding exactly {@code entries} (atomically) and returns it, open for appends. */
    public static ReservedOffsetsFile rewrite(Path file, List<Entry> entries) {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        ByteBuffer bytes = ByteBuffer.allocate(HEADER_BYTES + recordBytes(entries));
        bytes.putInt(MAGIC).putInt(VERSION);
        encodeRecord(entries, bytes);
        bytes.flip();
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(channel, bytes);
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + temporary, e);
        }
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace " + file, e);
        }
        return new ReservedOffsetsFile(file, bytes.limit());
    }

    /** Appends one record holding {@code entries} and forces it. */
    public void append(List<Entry> entries) {
        ByteBuffer bytes = ByteBuffer.allocate(recordBytes(entries));
        encodeRecord(entries, bytes);
        bytes.flip();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.position(sizeBytes);
            writeFully(channel, bytes);
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file, e);
        }
        sizeBytes += bytes.limit();
    }

    public long sizeBytes() {
        return sizeBytes;
    }

    /** Bytes a record holding {@code entries} takes. */
    public static int recordBytes(List<Entry> entries) {
        int bytes = RECORD_HEADER_BYTES;
        for (Entry entry : entries) {
            bytes += entry.encodedBytes();
        }
        return bytes;
    }

    /** Reads the file; a missing file reads as empty. Throws IllegalStateException naming the file when damaged. */
    public static Contents read(Path file) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (NoSuchFileException missing) {
            return new Contents(Map.of(), false, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        ByteBuffer buffer = ByteBuffer.wrap(content);
        if (content.length < HEADER_BYTES || buffer.getInt() != MAGIC || buffer.getInt() != VERSION) {
            throw damaged(file, 0, "no valid header (magic " + Integer.toHexString(MAGIC) + ", version " + VERSION
                    + ")");
        }
        Map<String, Map<Integer, Long>> bounds = new HashMap<>();
        while (buffer.hasRemaining()) {
            int recordAt = buffer.position();
            if (buffer.remaining() < RECORD_HEADER_BYTES) {
                return new Contents(bounds, true, true);
            }
            int bodyBytes = buffer.getInt();
            int crc = buffer.getInt();
            if (bodyBytes < 0 && buffer.hasRemaining()) {
                throw damaged(file, recordAt, "record length " + bodyBytes);
            }
            if (bodyBytes < 0 || bodyBytes > buffer.remaining()) {
                return new Contents(bounds, true, true);   // the record runs past the end: torn
            }
            ByteBuffer body = buffer.slice(buffer.position(), bodyBytes);
            buffer.position(buffer.position() + bodyBytes);
            if (crcOf(body) != crc) {
                if (buffer.hasRemaining()) {
                    throw damaged(file, recordAt, "record CRC mismatch with more records after it");
                }
                return new Contents(bounds, true, true);
            }
            decodeBody(file, recordAt, body, bounds);
        }
        return new Contents(bounds, true, false);
    }

    private static void decodeBody(Path file, int recordAt, ByteBuffer body, Map<String, Map<Integer, Long>> into) {
        while (body.hasRemaining()) {
            if (body.remaining() < ENTRY_FIXED_BYTES) {
                throw damaged(file, recordAt, "entry cut short inside a record");
            }
            int topicBytes = Short.toUnsignedInt(body.getShort());
            if (topicBytes == 0 || body.remaining() < topicBytes + 12) {
                throw damaged(file, recordAt, "entry topic length " + topicBytes + " does not fit its record");
            }
            byte[] topic = new byte[topicBytes];
            body.get(topic);
            int queueId = body.getInt();
            long bound = body.getLong();
            if (queueId < 0 || bound < 0) {
                throw damaged(file, recordAt, "entry with queueId " + queueId + " bound " + bound);
            }
            String name = new String(topic, StandardCharsets.UTF_8);
            if (bound == 0) {
                Map<Integer, Long> byId = into.get(name);
                if (byId != null) {
                    byId.remove(queueId);
                }
            } else {
                into.computeIfAbsent(name, t -> new HashMap<>()).put(queueId, bound);
            }
        }
    }

    private static void encodeRecord(List<Entry> entries, ByteBuffer into) {
        int start = into.position();
        into.position(start + RECORD_HEADER_BYTES);
        for (Entry entry : entries) {
            byte[] topic = entry.topic().getBytes(StandardCharsets.UTF_8);
            into.putShort((short) topic.length).put(topic).putInt(entry.queueId()).putLong(entry.bound());
        }
        int bodyBytes = into.position() - start - RECORD_HEADER_BYTES;
        into.putInt(start, bodyBytes);
        into.putInt(start + 4, crcOf(into.slice(start + RECORD_HEADER_BYTES, bodyBytes)));
    }

    private static int crcOf(ByteBuffer body) {
        CRC32 crc = new CRC32();
        crc.update(body.duplicate());
        return (int) crc.getValue();
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    /** Makes a rename durable (Linux: fsync of the directory). */
    private static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static IllegalStateException damaged(Path file, int at, String what) {
        return new IllegalStateException("reserved offsets file " + file + " is damaged at byte " + at + ": " + what
                + ". It holds the queue offsets handed out before a crash; without it offsets lost in that crash"
                + " could be handed out again. Restore it, or delete it to accept that risk and open the store.");
    }
}
