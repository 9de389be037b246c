package io.vrmq.store.format;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/** RocketMQ's BODYCRC: CRC32 of the body with the sign bit cleared ("masked"). */
public final class BodyCrc {
    private BodyCrc() {
    }

    public static int of(byte[] body) {
        return of(body, 0, body.length);
    }

    /** CRC of {@code length} bytes of {@code body} from {@code offset}. */
    public static int of(byte[] body, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(body, offset, length);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    /** CRC of {@code length} bytes at {@code position} of {@code buffer}; the buffer's position is untouched. */
    public static int of(ByteBuffer buffer, int position, int length) {
        CRC32 crc = new CRC32();
        crc.update(buffer.slice(position, length));
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }
}
