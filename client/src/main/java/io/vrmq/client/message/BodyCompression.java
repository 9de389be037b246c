package io.vrmq.client.message;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * ZLIB (zlib-wrapped deflate) bodies, the official producer's default: level 5 for bodies of at least 4 KiB,
 * sysFlag {@code COMPRESSED | ZLIB}. Stateless: any thread.
 */
public final class BodyCompression {
    private static final int CHUNK_BYTES = 4_096;

    private BodyCompression() {
    }

    public static byte[] deflate(byte[] body, int level) {
        Deflater deflater = new Deflater(level);
        try {
            deflater.setInput(body);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, body.length / 2));
            byte[] chunk = new byte[CHUNK_BYTES];
            while (!deflater.finished()) {
                int written = deflater.deflate(chunk);
                out.write(chunk, 0, written);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /**
     * @param maxBytes refuse bodies that inflate past this many bytes (a corrupt or hostile record)
     * @throws IllegalArgumentException when the bytes are not a zlib stream or inflate past {@code maxBytes}
     */
    public static byte[] inflate(byte[] compressed, int maxBytes) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length * 3);
            byte[] chunk = new byte[CHUNK_BYTES];
            while (!inflater.finished()) {
                int read = inflater.inflate(chunk);
                if (read == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("compressed body of " + compressed.length
                        + " bytes is cut short");
                }
                out.write(chunk, 0, read);
                if (out.size() > maxBytes) {
                    throw new IllegalArgumentException("compressed body inflates past " + maxBytes + " bytes");
                }
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("body is not a zlib stream: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
