package io.vrmq.broker.schedule;

import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.format.OffsetMessageId;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordReader;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A stored record copied out of the CommitLog onto the heap, with the fields a broker needs to store it again
 * elsewhere (send-back to a retry topic, a delayed or timer message reaching its real topic). Field offsets come from
 * the store's {@link RecordLayout}; the public {@link RecordReader} covers most of them.
 * <p>
 * {@link #decode} touches mapped memory: call it on a store reader thread, never on an event loop. The result is
 * immutable (the body array is not shared with the store) and may cross threads.
 */
public record StoredMessage(String topic, int queueId, int flag, long queueOffset, long commitLogOffset, int sysFlag,
                            long bornTimestamp, InetSocketAddress bornHost, long storeTimestamp, byte[] storeHost,
                            int storeHostPort, int reconsumeTimes, byte[] body, String properties) {
    private static final int IPV4_ADDRESS_BYTES = 4;
    private static final int IPV6_ADDRESS_BYTES = 16;

    /** Decodes the record at position 0 of {@code record} (a slice the store returned, already checked). */
    public static StoredMessage decode(ByteBuffer record) {
        int sysFlag = RecordReader.sysFlag(record, 0);
        int bornHostOffset = RecordLayout.BORN_HOST_OFFSET;
        int storeHostOffset = RecordLayout.storeHostOffset(sysFlag);
        byte[] bornAddress = bytes(record, bornHostOffset, addressBytes(RecordLayout.bornHostBytes(sysFlag)));
        int bornPort = record.getInt(bornHostOffset + bornAddress.length);
        byte[] storeAddress = bytes(record, storeHostOffset, addressBytes(RecordLayout.storeHostBytes(sysFlag)));
        int storePort = record.getInt(storeHostOffset + storeAddress.length);
        byte[] body = bytes(record, RecordReader.bodyPosition(record, 0), RecordReader.bodyLength(record, 0));
        return new StoredMessage(RecordReader.topic(record, 0), RecordReader.queueId(record, 0),
            record.getInt(RecordLayout.FLAG_OFFSET), RecordReader.queueOffset(record, 0),
            RecordReader.physicalOffset(record, 0), sysFlag, record.getLong(RecordLayout.BORN_TIMESTAMP_OFFSET),
            socketAddress(bornAddress, bornPort), RecordReader.storeTimestamp(record, 0), storeAddress, storePort,
            record.getInt(RecordLayout.reconsumeTimesOffset(sysFlag)), body, RecordReader.properties(record, 0));
    }

    /** RocketMQ's offset msgId of this record (what {@code MessageExt.getMsgId()} is on the broker side). */
    public String offsetMsgId() {
        return OffsetMessageId.of(storeHost, storeHostPort, commitLogOffset);
    }

    /** The properties as an ordered, mutable map. */
    public Map<String, String> propertyMap() {
        return MessageProperties.parse(properties);
    }

    /**
     * A new message with this one's body, flag, sys flag and born fields, stored to {@code topic}/{@code queueId}.
     * The store assigns the new store host, store time and offsets, as RocketMQ's re-puts do.
     */
    public MessageToStore copyTo(String newTopic, int newQueueId, Map<String, String> newProperties,
                                 int newReconsumeTimes) {
        return new MessageToStore(newTopic, newQueueId, flag, body, MessageProperties.format(newProperties), sysFlag,
            bornTimestamp, bornHost, newReconsumeTimes, 0);
    }

    private static int addressBytes(int hostBytes) {
        return hostBytes == 8 ? IPV4_ADDRESS_BYTES : IPV6_ADDRESS_BYTES;
    }

    private static byte[] bytes(ByteBuffer record, int at, int length) {
        byte[] copy = new byte[length];
        record.get(at, copy);
        return copy;
    }

    private static InetSocketAddress socketAddress(byte[] address, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), Math.max(0, Math.min(port, 65535)));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("stored host address of " + address.length + " bytes", e);
        }
    }
}
