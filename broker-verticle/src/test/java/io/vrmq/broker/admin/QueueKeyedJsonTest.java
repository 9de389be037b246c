package io.vrmq.broker.admin;

import io.vrmq.remoting.json.RemotingJson;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The object-keyed form fastjson gives MessageQueue-keyed maps (checked against the official 5.5.0 encoder). */
class QueueKeyedJsonTest {
    private final RemotingJson json = new RemotingJson();

    @Test
    void resetOffsetBodyHasQueueObjectsAsKeysInQueueOrder() {
        Map<MessageQueue, Long> table = new LinkedHashMap<>();
        table.put(new MessageQueue("b", 1, "T"), 9L);
        table.put(new MessageQueue("b", 0, "T"), 5L);
        assertEquals("{\"offsetTable\":{{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\"}:5,"
            + "{\"brokerName\":\"b\",\"queueId\":1,\"topic\":\"T\"}:9}}",
            QueueKeyedJson.body(json, Map.of(), table).toString());
    }

    @Test
    void plainFieldsAreSortedAroundTheTableAsFastjsonSortsThem() {
        Map<MessageQueue, ConsumeStatsProcessor.OffsetWrapper> table = Map.of(new MessageQueue("b", 0, "T"),
            new ConsumeStatsProcessor.OffsetWrapper(15, 10, 1, 10));
        assertEquals("{\"consumeTps\":0.5,\"offsetTable\":{{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\"}:"
            + "{\"brokerOffset\":15,\"consumerOffset\":10,\"lastTimestamp\":1,\"pullOffset\":10}}}",
            QueueKeyedJson.body(json, Map.of("consumeTps", 0.5), table).toString());
    }

    @Test
    void anEmptyTableIsAnEmptyObject() {
        assertEquals("{\"offsetTable\":{},\"topicPutTps\":0.0}",
            QueueKeyedJson.body(json, Map.of("topicPutTps", 0.0), Map.of()).toString());
    }
}
