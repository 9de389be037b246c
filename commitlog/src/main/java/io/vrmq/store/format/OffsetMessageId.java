package io.vrmq.store.format;

/**
 * RocketMQ's offset msgId: uppercase hex of store host address (4 or 16 bytes), port (int32) and commitLogOffset
 * (int64): 32 hex characters with IPv4, 56 with IPv6.
 */
public final class OffsetMessageId {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private OffsetMessageId() {
    }

    public static String of(byte[] storeHostAddress, int storeHostPort, long commitLogOffset) {
        char[] out = new char[(storeHostAddress.length + 4 + 8) * 2];
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
        return new String(out);
    }

    private static int hexByte(char[] out, int at, byte b) {
        out[at] = HEX[(b >>> 4) & 0x0F];
        out[at + 1] = HEX[b & 0x0F];
        return at + 2;
    }
}
