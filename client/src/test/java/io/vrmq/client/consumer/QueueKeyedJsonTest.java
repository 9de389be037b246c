package io.vrmq.client.consumer;

import io.vrmq.client.MessageQueue;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommandException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class QueueKeyedJsonTest {
    private final RemotingJson json = new RemotingJson();

    @Test
    void anObjectKeyedOffsetTableReadsBackAsQueueToOffset() {
        String body = "{\"offsetTable\":{{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\"}:5,"
            + " {\"brokerName\":\"b\",\"queueId\":1,\"topic\":\"T\"} : 12}}";

        Map<MessageQueue, Long> table = QueueKeyedJson.readOffsetTable(json, body, "offsetTable");

        assertEquals(Map.of(new MessageQueue("T", "b", 0), 5L, new MessageQueue("T", "b", 1), 12L), table);
    }

    @Test
    void whatTheWriterWritesTheReaderReads() {
        Map<MessageQueue, Long> written = Map.of(new MessageQueue("T}", "b{", 3), 7L,
            new MessageQueue("T", "b", 0), 0L);

        String body = QueueKeyedJson.body(json, Map.of("other", 1), Map.of("offsetTable", written))
            .toString(StandardCharsets.UTF_8);

        assertEquals(written, QueueKeyedJson.readOffsetTable(json, body, "offsetTable"));
    }

    @Test
    void anEmptyOrAbsentTableReadsAsEmpty() {
        assertEquals(Map.of(), QueueKeyedJson.readOffsetTable(json, "{\"offsetTable\":{}}", "offsetTable"));
        assertEquals(Map.of(), QueueKeyedJson.readOffsetTable(json, "{}", "offsetTable"));
    }

    @Test
    void aTableWithStringKeysIsRefusedWithItsPosition() {
        assertThrows(RemotingCommandException.class,
            () -> QueueKeyedJson.readOffsetTable(json, "{\"offsetTable\":{\"T@b@0\":5}}", "offsetTable"));
    }
}
