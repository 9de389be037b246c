package io.vrmq.store.format;

import java.nio.ByteBuffer;

/**
 * Writes records and blank fillers in the {@link RecordLayout} format with absolute puts, so the target buffer's
 * position is never touched. Stateless.
 */
public final class RecordWriter {
    private RecordWriter() {
    }

    /** Writes {@code message} at {@code position}; returns the record size. The caller checked that it fits. */
    public static int write(ByteBuffer target, int position, EncodedMessage message, long queueOffset,
                            long physicalOffset, long storeTimestamp, HostAddress storeHost) {
        int sysFlag = message.sysFlag();
        int magic = RecordLayout.magicFor(message.topic().length);
        target.putInt(position + RecordLayout.TOTAL_SIZE_OFFSET, message.recordBytes());
        target.putInt(position + RecordLayout.MAGIC_OFFSET, magic);
        target.putInt(position + RecordLayout.BODY_CRC_OFFSET, message.bodyCrc());
        target.putInt(position + RecordLayout.QUEUE_ID_OFFSET, message.queueId());
        target.putInt(position + RecordLayout.FLAG_OFFSET, message.flag());
        target.putLong(position + RecordLayout.QUEUE_OFFSET_OFFSET, queueOffset);
        target.putLong(position + RecordLayout.PHYSICAL_OFFSET_OFFSET, physicalOffset);
        target.putInt(position + RecordLayout.SYS_FLAG_OFFSET, sysFlag);
        target.putLong(position + RecordLayout.BORN_TIMESTAMP_OFFSET, message.bornTimestamp());
        int at = putHost(target, position + RecordLayout.BORN_HOST_OFFSET, message.bornHost());
        target.putLong(at, storeTimestamp);
        at = putHost(target, at + 8, storeHost);
        target.putInt(at, message.reconsumeTimes());
        target.putLong(at + 4, message.preparedTransactionOffset());
        at += 12;
        target.putInt(at, message.bodyLength());
        target.put(at + 4, message.body(), message.bodyOffset(), message.bodyLength());
        at += 4 + message.bodyLength();
        if (magic == RecordLayout.MAGIC_V2) {
            target.putShort(at, (short) message.topic().length);
            at += 2;
        } else {
            target.put(at, (byte) message.topic().length);
            at += 1;
        }
        target.put(at, message.topic());
        at += message.topic().length;
        target.putShort(at, (short) message.properties().length);
        target.put(at + 2, message.properties());
        int written = at + 2 + message.properties().length - position;
        if (written != message.recordBytes()) {
            throw new IllegalStateException("record size " + written + " != computed " + message.recordBytes());
        }
        return written;
    }

    /** Writes the filler that ends a segment: TOTALSIZE = bytes left, MAGIC = BLANK_MAGIC. */
    public static void writeBlank(ByteBuffer target, int position, int bytesLeft) {
        target.putInt(position + RecordLayout.TOTAL_SIZE_OFFSET, bytesLeft);
        target.putInt(position + RecordLayout.MAGIC_OFFSET, RecordLayout.BLANK_MAGIC);
    }

    private static int putHost(ByteBuffer target, int at, HostAddress host) {
        target.put(at, host.address());
        target.putInt(at + host.address().length, host.port());
        return at + host.address().length + 4;
    }
}
