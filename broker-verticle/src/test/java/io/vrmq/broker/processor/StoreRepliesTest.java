package io.vrmq.broker.processor;

import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.store.AppendResult;
import io.vrmq.store.AppendStatus;
import io.vrmq.store.FlushStatus;
import io.vrmq.store.format.HostAddress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A send answer's header fields iterate in the order the JSON header writes them (alphabetical, as the official
 * encoder sorts them), so the writer can take them as they come; and they are the fields RocketMQ's answer carries.
 */
class StoreRepliesTest {
    private static final AppendResult STORED = new AppendResult(AppendStatus.PUT_OK, 4096, 12, 1, 300,
        1_700_000_000_000L, new HostAddress(new byte[] {127, 0, 0, 1}, 10911),
        CompletableFuture.completedFuture(FlushStatus.FLUSH_OK), null);

    @Test
    void theStoredAnswersFieldsIterateInWireOrder() {
        RemotingCommand request = RemotingCommand.request(310);
        for (String uniqKey : new String[] {null, "7F0000010D2A18B4AAC2123456780000"}) {
            for (FlushStatus flush : FlushStatus.values()) {
                RemotingCommand answer = StoreReplies.stored(request, STORED, flush, STORED.offsetMsgId(), 3,
                    uniqKey);

                assertInWireOrder(answer.extFields());
                assertEquals(uniqKey == null ? 5 : 6, answer.extFields().size());
                assertEquals("3", answer.ext("queueId"));
                assertEquals("12", answer.ext("queueOffset"));
                assertEquals(STORED.offsetMsgId(), answer.ext("msgId"));
                assertEquals(uniqKey, answer.ext("transactionId"));
                assertEquals("DefaultRegion", answer.ext("MSG_REGION"));
                assertEquals("true", answer.ext("TRACE_ON"));
            }
        }
    }

    private static void assertInWireOrder(Map<String, String> fields) {
        List<String> iterated = new ArrayList<>(fields.keySet());
        List<String> sorted = new ArrayList<>(iterated);
        sorted.sort(null);
        assertEquals(sorted, iterated);
    }
}
