package io.vrmq.broker.grpc;

import com.google.protobuf.Timestamp;
import io.vertx.core.buffer.Buffer;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.Encoding;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.SystemProperties;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A gRPC {@code Message} checked and turned into the SEND_MESSAGE_V2 (310) request Apache's proxy sends its broker
 * for it: producer group = the topic name, properties UNIQ_KEY (the client's message id), TAGS, KEYS (joined by
 * spaces), __SHARDINGKEY (message group), TIMER_DELIVER_MS (delivery time), TRAN_MSG and PGROUP for half messages,
 * TRACE_CONTEXT, __BORNHOST, then the user properties. The checks and their codes are the proxy's. Pure.
 */
final class MessageIn {
    static final String DEFAULT_TOPIC = "TBW102";
    static final int DEFAULT_TOPIC_QUEUE_NUMS = 4;
    static final int TRANSACTION_PREPARED_FLAG = 0x4;
    static final int MAX_USER_PROPERTIES = 128;
    static final int MAX_USER_PROPERTIES_BYTES = 16 * 1024;
    static final int MAX_MESSAGE_GROUP_BYTES = 64;
    static final long MAX_DELIVERY_AHEAD_MS = 24 * 3_600_000L;
    static final long MAX_RECOVERY_SECONDS = 3_600;

    private MessageIn() {
    }

    /** The checked message, ready to send to {@code queueId}. */
    record Checked(String topic, MessageType type, String messageGroup, byte[] body, Map<String, String> properties,
                   long bornTimestamp) {
        RemotingCommand toRequest(int queueId) {
            Map<String, String> header = new HashMap<>();
            header.put("a", topic);                         // producerGroup: the topic, as the proxy names it
            header.put("b", topic);
            header.put("c", DEFAULT_TOPIC);
            header.put("d", Integer.toString(DEFAULT_TOPIC_QUEUE_NUMS));
            header.put("e", Integer.toString(queueId));
            header.put("f", Integer.toString(type == MessageType.TRANSACTION ? TRANSACTION_PREPARED_FLAG : 0));
            header.put("g", Long.toString(bornTimestamp));
            header.put("h", "0");
            header.put("i", MessageProperties.format(properties));
            header.put("j", "0");
            header.put("k", "false");
            header.put("m", "false");
            return RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, header, Buffer.buffer(body));
        }
    }

    /**
     * @param maxBodyBytes the broker's maxMessageSize
     * @param peerHost     the client's address, for __BORNHOST when it sent no born_host
     */
    static Checked check(Message message, int maxBodyBytes, String peerHost, long nowMs) {
        String topic = message.getTopic().getName();
        if (topic.isBlank()) {
            throw new GrpcStatusException(Code.ILLEGAL_TOPIC, "topic name cannot be empty");
        }
        SystemProperties system = message.getSystemProperties();
        if (system.getMessageId().isBlank()) {
            throw new GrpcStatusException(Code.ILLEGAL_MESSAGE_ID, "message id cannot be empty");
        }
        byte[] body = body(message);
        if (body.length == 0) {
            throw new GrpcStatusException(Code.MESSAGE_BODY_EMPTY, "message body cannot be empty");
        }
        if (body.length > maxBodyBytes) {
            throw new GrpcStatusException(Code.MESSAGE_BODY_TOO_LARGE, "message body " + body.length
                + " bytes > maxMessageSize " + maxBodyBytes);
        }
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, system.getMessageId());
        if (system.hasTag()) {
            properties.put(MessageConst.TAGS, checkedTag(system.getTag()));
        }
        if (system.getKeysCount() > 0) {
            properties.put(MessageConst.KEYS, String.join(" ", system.getKeysList()));
        }
        MessageType type = typeOf(system);
        String group = null;
        if (system.hasMessageGroup()) {
            group = system.getMessageGroup();
            if (group.isBlank() || group.getBytes(StandardCharsets.UTF_8).length >= MAX_MESSAGE_GROUP_BYTES) {
                throw new GrpcStatusException(Code.ILLEGAL_MESSAGE_GROUP, "message group must be 1.."
                    + (MAX_MESSAGE_GROUP_BYTES - 1) + " bytes: " + group);
            }
            properties.put(SystemPropertyNames.SHARDING_KEY, group);
        }
        if (system.hasDeliveryTimestamp()) {
            long deliverMs = millis(system.getDeliveryTimestamp());
            if (deliverMs - nowMs > MAX_DELIVERY_AHEAD_MS) {
                throw new GrpcStatusException(Code.ILLEGAL_DELIVERY_TIME, "delivery time " + deliverMs
                    + " is more than " + MAX_DELIVERY_AHEAD_MS + " ms ahead");
            }
            properties.put(MessageConst.TIMER_DELIVER_MS, Long.toString(deliverMs));
        }
        if (type == MessageType.TRANSACTION) {
            properties.put(MessageConst.TRANSACTION_PREPARED, "true");
            if (system.hasOrphanedTransactionRecoveryDuration()) {
                long seconds = system.getOrphanedTransactionRecoveryDuration().getSeconds();
                if (seconds > MAX_RECOVERY_SECONDS) {
                    throw new GrpcStatusException(Code.BAD_REQUEST, "orphaned transaction recovery duration "
                        + seconds + " s > " + MAX_RECOVERY_SECONDS + " s");
                }
                properties.put(SystemPropertyNames.CHECK_IMMUNITY_TIME_IN_SECONDS, Long.toString(seconds));
            }
        }
        properties.put(MessageConst.PRODUCER_GROUP, topic);
        if (system.hasTraceContext()) {
            properties.put(SystemPropertyNames.TRACE_CONTEXT, system.getTraceContext());
        }
        properties.put(SystemPropertyNames.BORN_HOST, system.getBornHost().isBlank() ? peerHost
            : system.getBornHost());
        addUserProperties(message.getUserPropertiesMap(), properties);
        long bornMs = system.hasBornTimestamp() ? millis(system.getBornTimestamp()) : nowMs;
        return new Checked(topic, type, group, body, properties, bornMs);
    }

    /** The declared type, or the one its fields imply when the client declared none; a contradiction is 40014. */
    private static MessageType typeOf(SystemProperties system) {
        MessageType declared = system.getMessageType();
        if (declared == MessageType.MESSAGE_TYPE_UNSPECIFIED || declared == MessageType.UNRECOGNIZED) {
            if (system.hasMessageGroup()) {
                return MessageType.FIFO;
            }
            return system.hasDeliveryTimestamp() ? MessageType.DELAY : MessageType.NORMAL;
        }
        boolean isConsistent = switch (declared) {
            case FIFO -> system.hasMessageGroup() && !system.hasDeliveryTimestamp();
            case DELAY -> system.hasDeliveryTimestamp() && !system.hasMessageGroup();
            case NORMAL, TRANSACTION -> !system.hasMessageGroup() && !system.hasDeliveryTimestamp();
            default -> false;
        };
        if (!isConsistent) {
            throw new GrpcStatusException(Code.MESSAGE_PROPERTY_CONFLICT_WITH_TYPE, "message type " + declared
                + " does not match its properties (message group " + system.hasMessageGroup()
                + ", delivery timestamp " + system.hasDeliveryTimestamp() + ")");
        }
        return declared;
    }

    private static String checkedTag(String tag) {
        boolean hasControl = tag.chars().anyMatch(Character::isISOControl);
        if (tag.isBlank() || tag.contains("|") || hasControl) {
            throw new GrpcStatusException(Code.ILLEGAL_MESSAGE_TAG, "tag must be non-blank, without '|' or "
                + "control characters: " + tag);
        }
        return tag;
    }

    private static void addUserProperties(Map<String, String> user, Map<String, String> properties) {
        if (user.size() > MAX_USER_PROPERTIES) {
            throw new GrpcStatusException(Code.MESSAGE_PROPERTIES_TOO_LARGE, user.size()
                + " user properties > " + MAX_USER_PROPERTIES);
        }
        int bytes = 0;
        for (Map.Entry<String, String> entry : user.entrySet()) {
            String name = entry.getKey();
            if (name.isEmpty() || SystemPropertyNames.isSystem(name)) {
                throw new GrpcStatusException(Code.ILLEGAL_MESSAGE_PROPERTY_KEY, "property key '" + name
                    + "' is empty or reserved for the system");
            }
            if (hasSeparator(name) || hasSeparator(entry.getValue())) {
                throw new GrpcStatusException(Code.ILLEGAL_MESSAGE_PROPERTY_KEY, "property '" + name
                    + "' contains a character reserved by the message format (\\u0001 or \\u0002)");
            }
            bytes += name.getBytes(StandardCharsets.UTF_8).length
                + entry.getValue().getBytes(StandardCharsets.UTF_8).length;
            properties.put(name, entry.getValue());
        }
        if (bytes > MAX_USER_PROPERTIES_BYTES) {
            throw new GrpcStatusException(Code.MESSAGE_PROPERTIES_TOO_LARGE, "user properties take " + bytes
                + " bytes > " + MAX_USER_PROPERTIES_BYTES);
        }
    }

    private static boolean hasSeparator(String text) {
        return text.indexOf(MessageProperties.NAME_VALUE_SEPARATOR) >= 0
            || text.indexOf(MessageProperties.PROPERTY_SEPARATOR) >= 0;
    }

    /** The body as stored: a GZIP body is unpacked, so that every reader gets what the producer meant. */
    private static byte[] body(Message message) {
        byte[] body = message.getBody().toByteArray();
        if (message.getSystemProperties().getBodyEncoding() != Encoding.GZIP) {
            return body;
        }
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 4);
            in.transferTo(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new GrpcStatusException(Code.MESSAGE_CORRUPTED, "body declared GZIP does not unpack: "
                + e.getMessage());
        }
    }

    static long millis(Timestamp timestamp) {
        return timestamp.getSeconds() * 1000 + timestamp.getNanos() / 1_000_000;
    }
}
