package io.vrmq.ceiling;

import io.vrmq.store.format.BodyCrc;
import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordWriter;
import java.nio.charset.StandardCharsets;

/**
 * Turns a sent message into the bytes a pull returns: RocketMQ's stored-record layout (the official client decodes
 * pulled messages from it), written once at send time into the arena, as a broker writes it once into its CommitLog.
 * Stateless.
 */
final class StoredRecord {
    private static final int HOST_V6_FLAGS = RecordLayout.SYS_FLAG_BORN_HOST_V6 | RecordLayout.SYS_FLAG_STORE_HOST_V6;

    private StoredRecord() {
    }

    /** The message, as it will be written (the hosts' IPv6 flags set to match them). */
    static EncodedMessage encode(SentMessage sent, HostAddress storeHost) {
        byte[] topic = sent.topic().getBytes(StandardCharsets.UTF_8);
        byte[] properties = sent.properties().getBytes(StandardCharsets.UTF_8);
        int sysFlag = sent.sysFlag() & ~HOST_V6_FLAGS;
        if (sent.bornHost().isIpv6()) {
            sysFlag |= RecordLayout.SYS_FLAG_BORN_HOST_V6;
        }
        if (storeHost.isIpv6()) {
            sysFlag |= RecordLayout.SYS_FLAG_STORE_HOST_V6;
        }
        int recordBytes = RecordLayout.recordBytes(sysFlag, sent.body().length, topic.length, properties.length);
        return new EncodedMessage(topic, sent.queueId(), sent.flag(), sent.body(), BodyCrc.of(sent.body()),
            properties, sysFlag, sent.bornTimestamp(), sent.bornHost(), sent.reconsumeTimes(), 0L, recordBytes);
    }

    /**
     * Writes the record into {@code arena}; returns its address. {@code physicalOffset} is the ceiling's running byte
     * count (it names the offset message id).
     */
    static long write(RecordArena arena, EncodedMessage message, long queueOffset, long physicalOffset,
                      long storeTimestamp, HostAddress storeHost) {
        long address = arena.allocate(message.recordBytes());
        RecordWriter.write(arena.chunk(address), RecordArena.position(address), message, queueOffset, physicalOffset,
            storeTimestamp, storeHost);
        return address;
    }
}
