package io.vrmq.broker.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.grpc.proto.Digest;
import io.vrmq.grpc.proto.DigestType;
import io.vrmq.grpc.proto.Encoding;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.SystemProperties;
import io.vrmq.remoting.message.MessageConst;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A stored message as a RocketMQ 5 {@code Message}, the way Apache's proxy builds it: user properties are every
 * property that is not a system one; the body is handed out uncompressed (the remoting client compresses bodies over
 * 4 KiB with zlib and marks it in the sys flag) with its MD5 digest (the Node SDK dereferences body_digest without a
 * check); delivery_attempt is reconsume times + 1. Pure; call on any thread.
 */
final class MessageOut {
    /** The sys-flag bit of a zlib-compressed body (RocketMQ's MessageSysFlag.COMPRESSED_FLAG). */
    static final int COMPRESSED_FLAG = 0x1;
    /** The compression-type bits beside it (MessageSysFlag): 0 (older clients) and 3 are zlib, 1 LZ4, 2 zstd. */
    private static final int COMPRESSION_TYPE_SHIFT = 8;
    private static final int COMPRESSION_TYPE_MASK = 0x7;
    private static final int ZLIB_TYPE = 3;
    private static final int INFLATE_CHUNK_BYTES = 64 * 1024;

    private MessageOut() {
    }

    /**
     * @param receiptHandle  null for a message that is not handed out by a receive (a transaction check)
     * @param reconsumeTimes the delivery count before this one (the record's own, or an orderly pop's count)
     */
    static Message of(StoredMessage stored, String receiptHandle, int reconsumeTimes, long invisibleTimeMs) {
        Map<String, String> properties = stored.propertyMap();
        byte[] body = uncompressed(stored);
        SystemProperties.Builder system = SystemProperties.newBuilder()
            .setMessageId(messageId(stored, properties))
            .setBodyDigest(Digest.newBuilder().setType(DigestType.MD5).setChecksum(md5(body)))
            .setBodyEncoding(Encoding.IDENTITY)
            .setMessageType(typeOf(properties))
            .setBornTimestamp(timestamp(stored.bornTimestamp()))
            .setBornHost(bornHost(stored, properties))
            .setStoreTimestamp(timestamp(stored.storeTimestamp()))
            .setStoreHost(host(stored.storeHost()) + ":" + stored.storeHostPort())
            .setQueueId(stored.queueId())
            .setQueueOffset(stored.queueOffset())
            .setDeliveryAttempt(reconsumeTimes + 1);
        String tag = properties.get(MessageConst.TAGS);
        if (tag != null) {
            system.setTag(tag);
        }
        String keys = properties.get(MessageConst.KEYS);
        if (keys != null) {
            for (String key : keys.split(" ")) {
                if (!key.isEmpty()) {
                    system.addKeys(key);
                }
            }
        }
        String group = properties.get(SystemPropertyNames.SHARDING_KEY);
        if (group != null) {
            system.setMessageGroup(group);
        }
        Long deliverMs = deliveryTime(properties);
        if (deliverMs != null) {
            system.setDeliveryTimestamp(timestamp(deliverMs));
        }
        String traceContext = properties.get(SystemPropertyNames.TRACE_CONTEXT);
        if (traceContext != null) {
            system.setTraceContext(traceContext);
        }
        if (receiptHandle != null) {
            system.setReceiptHandle(receiptHandle)
                .setInvisibleDuration(com.google.protobuf.Duration.newBuilder()
                    .setSeconds(invisibleTimeMs / 1000).setNanos((int) (invisibleTimeMs % 1000) * 1_000_000));
        }
        Message.Builder message = Message.newBuilder()
            .setTopic(Resource.newBuilder().setName(stored.topic()))
            .setSystemProperties(system)
            .setBody(ByteString.copyFrom(body));
        properties.forEach((name, value) -> {
            if (!SystemPropertyNames.isSystem(name)) {
                message.putUserProperties(name, value);
            }
        });
        return message.build();
    }

    static MessageType typeOf(Map<String, String> properties) {
        if (Boolean.parseBoolean(properties.get(MessageConst.TRANSACTION_PREPARED))) {
            return MessageType.TRANSACTION;
        }
        if (properties.containsKey(SystemPropertyNames.SHARDING_KEY)) {
            return MessageType.FIFO;
        }
        if (deliveryTime(properties) != null || properties.containsKey(MessageConst.DELAY_TIME_LEVEL)) {
            return MessageType.DELAY;
        }
        return MessageType.NORMAL;
    }

    private static String messageId(StoredMessage stored, Map<String, String> properties) {
        String uniqKey = properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        return uniqKey != null && !uniqKey.isEmpty() ? uniqKey : stored.offsetMsgId();
    }

    private static Long deliveryTime(Map<String, String> properties) {
        for (String name : new String[] {MessageConst.TIMER_DELIVER_MS, MessageConst.START_DELIVER_TIME}) {
            String value = properties.get(name);
            if (value != null) {
                try {
                    return Long.parseLong(value.trim());
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static String bornHost(StoredMessage stored, Map<String, String> properties) {
        String fromProperty = properties.get(SystemPropertyNames.BORN_HOST);
        if (fromProperty != null && !fromProperty.isEmpty()) {
            return fromProperty;
        }
        return stored.bornHost().getAddress() == null ? stored.bornHost().getHostString()
            : stored.bornHost().getAddress().getHostAddress();
    }

    private static String host(byte[] address) {
        try {
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (UnknownHostException e) {
            return "";
        }
    }

    static Timestamp timestamp(long epochMs) {
        return Timestamp.newBuilder().setSeconds(Math.floorDiv(epochMs, 1000))
            .setNanos(Math.floorMod(epochMs, 1000) * 1_000_000).build();
    }

    static String md5(byte[] body) {
        try {
            return HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("MD5").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }

    /** The body as the producer sent it; a body compressed other than by zlib is handed out as stored. */
    private static byte[] uncompressed(StoredMessage stored) {
        int type = (stored.sysFlag() >> COMPRESSION_TYPE_SHIFT) & COMPRESSION_TYPE_MASK;
        if ((stored.sysFlag() & COMPRESSED_FLAG) == 0 || (type != 0 && type != ZLIB_TYPE)) {
            return stored.body();
        }
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(stored.body());
            ByteArrayOutputStream out = new ByteArrayOutputStream(stored.body().length * 4);
            byte[] chunk = new byte[INFLATE_CHUNK_BYTES];
            while (!inflater.finished()) {
                int inflated = inflater.inflate(chunk);
                if (inflated == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    return stored.body();   // not zlib after all: hand it out as it is
                }
                out.write(chunk, 0, inflated);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            return stored.body();
        } finally {
            inflater.end();
        }
    }
}
