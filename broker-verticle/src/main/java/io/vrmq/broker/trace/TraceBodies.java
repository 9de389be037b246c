package io.vrmq.broker.trace;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The text of a trace message's body. The official clients send trace batches through an ordinary producer, which
 * compresses a body over compressMsgBodyOverHowmuch (4 KiB) and marks it in the sys flag: COMPRESSED (bit 0) with
 * the type in bits 8-10 (zlib when none is named, as RocketMQ 4.x wrote it; LZ4 and ZSTD are not read here, the
 * clients' default is zlib). Inflating stops at {@code maxBytes} (the broker's maxMessageSize: no trace batch is
 * larger), so a hostile body cannot make the admin view allocate without bound. Stateless; any thread.
 */
public final class TraceBodies {
    static final int COMPRESSED_FLAG = 0x1;
    private static final int COMPRESSION_TYPE_MASK = 0x7 << 8;
    private static final int ZLIB_TYPE = 0x3 << 8;
    private static final int CHUNK_BYTES = 8 * 1024;

    private TraceBodies() {
    }

    /** The body as text; {@code null} when it is compressed in a way this broker does not read, or damaged. */
    public static String text(int sysFlag, byte[] body, int maxBytes) {
        if ((sysFlag & COMPRESSED_FLAG) == 0) {
            return new String(body, StandardCharsets.UTF_8);
        }
        int type = sysFlag & COMPRESSION_TYPE_MASK;
        if (type != 0 && type != ZLIB_TYPE) {
            return null;
        }
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(body);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxBytes, body.length * 4));
            byte[] chunk = new byte[CHUNK_BYTES];
            while (!inflater.finished()) {
                int inflated = inflater.inflate(chunk);
                if (inflated == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    return null;   // truncated
                }
                if (out.size() + inflated > maxBytes) {
                    return null;
                }
                out.write(chunk, 0, inflated);
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (DataFormatException e) {
            return null;
        } finally {
            inflater.end();
        }
    }
}
