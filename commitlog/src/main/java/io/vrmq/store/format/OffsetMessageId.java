package io.vrmq.store.format;

import java.nio.charset.StandardCharsets;

/**
 * RocketMQ's offset msgId: uppercase hex of store host address (4 or 16 bytes), port (int32) and commitLogOffset
 * (int64): 32 hex characters with IPv4, 56 with IPv6. Built as Latin-1 bytes, the string's own form (one per send's
 * answer: a char[] would be twice the bytes and a compression pass).
 */
public final class OffsetMessageId {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private OffsetMessageId() {
    }

    public static String of(byte[] storeHostAddress, int storeHostPort, long commitLogOffset) {
        byte[] out = new byte[(storeHostAddress.length + 4 + 8) * 2];
        int at = 0;
        for (byte b : storeHostAddress) {
            at = hexByte(out, at, b);
        }
        for (int shift = 24; shift >= 0; shift -= 8) {
            at = hexByte(out, at, (byte) (storeHostPort >>> shift));
        }
        for (int shift = 56; shift >= 0; shift -= 8) {
            at = hexByte(out, at, (byte) (commitLogOffset >>> shift));
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    private static int hexByte(byte[] out, int at, byte b) {
        out[at] = HEX[(b >>> 4) & 0x0F];
        out[at + 1] = HEX[b & 0x0F];
        return at + 2;
    }
}
