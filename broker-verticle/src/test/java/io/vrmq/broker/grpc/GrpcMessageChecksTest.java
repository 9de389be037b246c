package io.vrmq.broker.grpc;

import com.google.protobuf.ByteString;
import io.vrmq.broker.pop.ExtraInfo;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.Encoding;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.SystemProperties;
import io.vrmq.remoting.body.TopicConfig;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checks a gRPC send goes through, and the handles and ids this endpoint hands out and takes back. */
class GrpcMessageChecksTest {
    private static final int MAX_BODY = 1024;
    private static final long NOW_MS = 1_800_000_000_000L;

    @Test
    void aCheckedMessageCarriesTheProxysProperties() {
        Message message = message(SystemProperties.newBuilder().setMessageId("01ABC").setTag("TagA")
            .addKeys("k1").addKeys("k2").setMessageGroup("g1").setMessageType(MessageType.FIFO))
            .toBuilder().putUserProperties("color", "blue").build();
        MessageIn.Checked checked = MessageIn.check(message, MAX_BODY, "10.0.0.1", NOW_MS);
        Map<String, String> properties = checked.properties();
        assertEquals("01ABC", properties.get("UNIQ_KEY"));
        assertEquals("TagA", properties.get("TAGS"));
        assertEquals("k1 k2", properties.get("KEYS"));
        assertEquals("g1", properties.get("__SHARDINGKEY"));
        assertEquals("T", properties.get("PGROUP"));
        assertEquals("10.0.0.1", properties.get("__BORNHOST"));
        assertEquals("blue", properties.get("color"));
        assertEquals(MessageType.FIFO, checked.type());
        Map<String, String> header = checked.toRequest(3).extFields();
        assertEquals("T", header.get("a"));
        assertEquals("3", header.get("e"));
        assertEquals("0", header.get("f"));
    }

    @Test
    void refusalsHaveTheProxysCodes() {
        assertCode(Code.ILLEGAL_MESSAGE_ID, message(SystemProperties.newBuilder()));
        assertCode(Code.ILLEGAL_MESSAGE_TAG, message(SystemProperties.newBuilder().setMessageId("1").setTag("a|b")));
        assertCode(Code.ILLEGAL_MESSAGE_GROUP, message(SystemProperties.newBuilder().setMessageId("1")
            .setMessageGroup("g".repeat(64))));
        assertCode(Code.MESSAGE_PROPERTY_CONFLICT_WITH_TYPE, message(SystemProperties.newBuilder().setMessageId("1")
            .setMessageType(MessageType.FIFO)));
        assertCode(Code.ILLEGAL_DELIVERY_TIME, message(SystemProperties.newBuilder().setMessageId("1")
            .setMessageType(MessageType.DELAY).setDeliveryTimestamp(MessageOut.timestamp(NOW_MS + 25 * 3_600_000L))));
        assertCode(Code.MESSAGE_BODY_TOO_LARGE, message(SystemProperties.newBuilder().setMessageId("1"))
            .toBuilder().setBody(ByteString.copyFrom(new byte[MAX_BODY + 1])).build());
        assertCode(Code.MESSAGE_BODY_EMPTY, message(SystemProperties.newBuilder().setMessageId("1")).toBuilder()
            .setBody(ByteString.EMPTY).build());
        assertCode(Code.ILLEGAL_MESSAGE_PROPERTY_KEY, message(SystemProperties.newBuilder().setMessageId("1"))
            .toBuilder().putUserProperties("UNIQ_KEY", "x").build());
        Map<String, String> many = new HashMap<>();
        for (int i = 0; i <= MessageIn.MAX_USER_PROPERTIES; i++) {
            many.put("p" + i, "v");
        }
        assertCode(Code.MESSAGE_PROPERTIES_TOO_LARGE, message(SystemProperties.newBuilder().setMessageId("1"))
            .toBuilder().putAllUserProperties(many).build());
    }

    @Test
    void aGzipBodyIsStoredUnpacked() throws Exception {
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(packed)) {
            gzip.write("hello".getBytes(StandardCharsets.UTF_8));
        }
        Message message = message(SystemProperties.newBuilder().setMessageId("1").setBodyEncoding(Encoding.GZIP))
            .toBuilder().setBody(ByteString.copyFrom(packed.toByteArray())).build();
        assertEquals("hello", new String(MessageIn.check(message, MAX_BODY, "h", NOW_MS).body(),
            StandardCharsets.UTF_8));
    }

    @Test
    void receiptHandlesRoundTripAndExpire() {
        String extraInfo = ExtraInfo.format(5, NOW_MS, 30_000, 2, "T", "broker-a", 1, 7);
        ReceiptHandle handle = ReceiptHandle.parse(ReceiptHandle.format(extraInfo, 4096));
        assertEquals(extraInfo, handle.extraInfo());
        assertEquals(4096, handle.commitLogOffset());
        assertEquals(7, handle.receipt().queueOffset());
        assertEquals("T", handle.poppedTopic("T", "G"));
        assertTrue(handle.isExpired(NOW_MS + 30_000));
        assertEquals(Code.INVALID_RECEIPT_HANDLE, assertThrows(GrpcStatusException.class,
            () -> ReceiptHandle.parse("not a handle")).status().getCode());
    }

    @Test
    void transactionIdsRoundTrip() {
        TransactionId id = new TransactionId(123456, 42);
        assertEquals(id, TransactionId.parse(id.format()));
        assertEquals(Code.INVALID_TRANSACTION_ID, assertThrows(GrpcStatusException.class,
            () -> TransactionId.parse("")).status().getCode());
    }

    @Test
    void aMessageGroupAlwaysMapsToTheSameQueue() {
        QueueChoice choice = new QueueChoice();
        int queue = choice.choose("order-1", 8);
        for (int i = 0; i < 10; i++) {
            assertEquals(queue, choice.choose("order-1", 8));
        }
        assertTrue(queue >= 0 && queue < 8);
        assertEquals(0, QueueChoice.consistentHash(12345, 1));
    }

    @Test
    void topicMessageTypesComeFromTheMessageTypeAttribute() {
        assertEquals(List.of(MessageType.NORMAL), Routes.acceptedTypes(topic(Map.of())));
        assertEquals(List.of(MessageType.FIFO), Routes.acceptedTypes(topic(Map.of("message.type", "FIFO"))));
        assertEquals(4, Routes.acceptedTypes(topic(Map.of("message.type", "MIXED"))).size());
    }

    private static TopicConfig topic(Map<String, String> attributes) {
        return new TopicConfig("T", 4, 4, 6, null, 0, false, attributes);
    }

    private static Message message(SystemProperties.Builder system) {
        return Message.newBuilder().setTopic(Resource.newBuilder().setName("T")).setSystemProperties(system)
            .setBody(ByteString.copyFromUtf8("body")).build();
    }

    private static void assertCode(Code expected, Message message) {
        GrpcStatusException refused = assertThrows(GrpcStatusException.class,
            () -> MessageIn.check(message, MAX_BODY, "h", NOW_MS));
        assertEquals(expected, refused.status().getCode(), refused.getMessage());
    }
}
