package io.vrmq.broker.trace;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Trace bodies as the official producer stores them: plain, or zlib-compressed above 4 KiB. */
class TraceBodiesTest {
    private static final String BATCH = "Pub\u0001" + "x".repeat(10_000) + "\u0002";

    @Test
    void aPlainBodyIsReadAsItIs() {
        assertEquals(BATCH, TraceBodies.text(0, BATCH.getBytes(StandardCharsets.UTF_8), 1 << 20));
    }

    @Test
    void aZlibBodyIsInflatedWithOrWithoutItsTypeBits() {
        byte[] compressed = zlib(BATCH.getBytes(StandardCharsets.UTF_8));
        assertEquals(BATCH, TraceBodies.text(TraceBodies.COMPRESSED_FLAG, compressed, 1 << 20));
        assertEquals(BATCH, TraceBodies.text(TraceBodies.COMPRESSED_FLAG | (0x3 << 8), compressed, 1 << 20));
    }

    @Test
    void otherCodecsDamageAndOversizeGiveNull() {
        byte[] compressed = zlib(BATCH.getBytes(StandardCharsets.UTF_8));
        assertNull(TraceBodies.text(TraceBodies.COMPRESSED_FLAG | (0x1 << 8), compressed, 1 << 20));   // LZ4
        assertNull(TraceBodies.text(TraceBodies.COMPRESSED_FLAG, new byte[] {1, 2, 3, 4}, 1 << 20));
        byte[] truncated = java.util.Arrays.copyOf(compressed, compressed.length / 2);
        assertNull(TraceBodies.text(TraceBodies.COMPRESSED_FLAG, truncated, 1 << 20));
        assertNull(TraceBodies.text(TraceBodies.COMPRESSED_FLAG, compressed, 1_000));
    }

    private static byte[] zlib(byte[] plain) {
        Deflater deflater = new Deflater(5);
        deflater.setInput(plain);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        while (!deflater.finished()) {
            out.write(chunk, 0, deflater.deflate(chunk));
        }
        deflater.end();
        return out.toByteArray();
    }
}
