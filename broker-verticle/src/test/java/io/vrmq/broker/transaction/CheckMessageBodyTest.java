package io.vrmq.broker.transaction;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.AppendResult;
import io.vrmq.store.AppendStatus;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.RecordLayout;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The check body is a stored record under the real topic and queue, with the stored copy's offsets. */
class CheckMessageBodyTest {

    @Test
    void bodyIsTheStoredCopyUnderItsRealTopicAndQueue() {
        String properties = MessageProperties.format(Map.of("REAL_TOPIC", "Orders", "REAL_QID", "3",
            "TRANSACTION_CHECK_TIMES", "1"));
        MessageToStore copy = new MessageToStore(TransactionNames.HALF_TOPIC, 0, 5,
            "payload".getBytes(StandardCharsets.UTF_8), properties, 0, 1_234L,
            new InetSocketAddress("127.0.0.1", 40_000), 2, 0);
        AppendResult stored = new AppendResult(AppendStatus.PUT_OK, 8_192, 11, 1, 200, 5_678L,
            new HostAddress(new byte[] {10, 0, 0, 7}, 10_911), CompletableFuture.completedFuture(null), null);

        byte[] body = CheckMessageBody.encode(copy, stored, "Orders", 3);
        StoredMessage decoded = StoredMessage.decode(ByteBuffer.wrap(body));

        assertEquals(body.length, ByteBuffer.wrap(body).getInt(RecordLayout.TOTAL_SIZE_OFFSET));
        assertEquals(RecordLayout.MAGIC_V1, ByteBuffer.wrap(body).getInt(RecordLayout.MAGIC_OFFSET));
        assertEquals("Orders", decoded.topic());
        assertEquals(3, decoded.queueId());
        assertEquals(5, decoded.flag());
        assertEquals(11, decoded.queueOffset());
        assertEquals(8_192, decoded.commitLogOffset());
        assertEquals(1_234L, decoded.bornTimestamp());
        assertEquals(5_678L, decoded.storeTimestamp());
        assertEquals(2, decoded.reconsumeTimes());
        assertEquals("payload", new String(decoded.body(), StandardCharsets.UTF_8));
        assertEquals(properties, decoded.properties());
        assertEquals(stored.offsetMsgId(), decoded.offsetMsgId());
    }
}
