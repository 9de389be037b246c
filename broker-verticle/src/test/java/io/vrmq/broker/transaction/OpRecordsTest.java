package io.vrmq.broker.transaction;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.MessageToStore;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Op records in RocketMQ's form: written as 5.x writes them, read in both the 5.x and the 4.x form. */
class OpRecordsTest {

    @Test
    void opRecordNamesTheHalfOffsetFollowedByACommaUnderTagD() {
        OpRecords records = new OpRecords(new InetSocketAddress("127.0.0.1", 10_911), () -> 42L);
        MessageToStore op = records.resolving(0, 17);
        assertEquals(TransactionNames.OP_TOPIC, op.topic());
        assertEquals(0, op.queueId());
        assertEquals("17,", new String(op.body(), StandardCharsets.UTF_8));
        assertEquals("d", MessageProperties.parse(op.properties()).get(MessageConst.TAGS));
        assertEquals(42L, op.bornTimestamp());
    }

    @Test
    void batchedAndFourXBodiesAreBothRead() {
        assertEquals(List.of(3L, 4L, 9L), OpRecords.halfOffsets("d", bytes("3,4,9,")));
        assertEquals(List.of(12L), OpRecords.halfOffsets("d", bytes("12")));
    }

    @Test
    void otherTagsAndUnreadableTokensNameNothing() {
        assertEquals(List.of(), OpRecords.halfOffsets("x", bytes("3,")));
        assertEquals(List.of(5L), OpRecords.halfOffsets("d", bytes("oops,5,")));
        assertEquals(List.of(), OpRecords.halfOffsets("d", null));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
