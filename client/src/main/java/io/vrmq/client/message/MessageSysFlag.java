package io.vrmq.client.message;

/** RocketMQ's MessageSysFlag bits, as the send header's {@code f} and the stored record carry them. */
public final class MessageSysFlag {
    public static final int COMPRESSED_FLAG = 1;
    public static final int BORN_HOST_V6_FLAG = 1 << 4;
    public static final int STORE_HOST_V6_FLAG = 1 << 5;
    /** Bits 8..10: the compression type; 0 and 3 are ZLIB, 1 LZ4, 2 ZSTD. */
    public static final int COMPRESSION_TYPE_MASK = 0x7 << 8;
    public static final int COMPRESSION_ZLIB = 3 << 8;

    private MessageSysFlag() {
    }

    public static boolean isCompressed(int sysFlag) {
        return (sysFlag & COMPRESSED_FLAG) != 0;
    }

    public static int compressionType(int sysFlag) {
        return (sysFlag & COMPRESSION_TYPE_MASK) >> 8;
    }
}
