package io.vrmq.broker.timer;

import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Timer and delay requests inside a batch are refused with MESSAGE_ILLEGAL naming the message and property. */
class BatchTimerCheckTest {

    @Test
    void aTimerPropertyOfAnInnerMessageIsRefusedNamingIt() {
        RemotingCommandException refused = assertThrows(RemotingCommandException.class,
            () -> BatchTimerCheck.requireNoTimer("T", 2, Map.of("TIMER_DELAY_SEC", "30")));
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, refused.responseCode());
        assertTrue(refused.getMessage().contains("message 2 of the batch to T"), refused.getMessage());
        assertTrue(refused.getMessage().contains("TIMER_DELAY_SEC=30"), refused.getMessage());
    }

    @Test
    void theOlderStartDeliverTimeAndADelayLevelAreRefusedToo() {
        assertThrows(RemotingCommandException.class,
            () -> BatchTimerCheck.requireNoTimer("T", 0, Map.of("__STARTDELIVERTIME", "1")));
        assertThrows(RemotingCommandException.class,
            () -> BatchTimerCheck.requireNoTimer("T", 0, Map.of("DELAY", "3")));
        assertThrows(RemotingCommandException.class, () -> BatchTimerCheck.requireNoDelay(Map.of("DELAY", "3")));
    }

    @Test
    void plainMessagesAndAlreadyTimedOnesPass() {
        assertDoesNotThrow(() -> BatchTimerCheck.requireNoTimer("T", 0, Map.of("TAGS", "A", "KEYS", "k")));
        assertDoesNotThrow(() -> BatchTimerCheck.requireNoTimer("T", 0, Map.of("TIMER_DELIVER_MS", "1",
            "TIMER_OUT_MS", "1")));
        assertDoesNotThrow(() -> BatchTimerCheck.requireNoDelay(Map.of("WAIT", "true")));
    }
}
