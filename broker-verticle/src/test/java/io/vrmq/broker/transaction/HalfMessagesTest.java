package io.vrmq.broker.transaction;

import io.vrmq.remoting.message.MessageConst;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which sends are half messages, and what their stored form keeps. */
class HalfMessagesTest {

    @Test
    void sendWithTranMsgTrueIsAHalfMessage() {
        assertTrue(HalfMessages.isHalfMessage(Map.of(MessageConst.TRANSACTION_PREPARED, "true"), 0));
        assertFalse(HalfMessages.isHalfMessage(Map.of(), 0));
        assertFalse(HalfMessages.isHalfMessage(Map.of(MessageConst.TRANSACTION_PREPARED, "false"), 0));
    }

    @Test
    void retryThatAnOldClientResentItselfIsNoHalfMessage() {
        Map<String, String> resent = Map.of(MessageConst.TRANSACTION_PREPARED, "true",
            MessageConst.DELAY_TIME_LEVEL, "3");
        assertFalse(HalfMessages.isHalfMessage(resent, 1));
        assertTrue(HalfMessages.isHalfMessage(resent, 0));
    }

    @Test
    void halfMessageKeepsItsRealDestinationAndTransactionId() {
        Map<String, String> properties = new HashMap<>(Map.of(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "U1"));
        HalfMessages.keepRealDestination("Orders", 3, properties);
        assertEquals("Orders", properties.get(MessageConst.REAL_TOPIC));
        assertEquals("3", properties.get(MessageConst.REAL_QUEUE_ID));
        assertEquals("U1", properties.get(MessageConst.TRANSACTION_ID));
        assertEquals(3, HalfMessages.realQueueId(properties));
    }

    @Test
    void halfMessageIsStoredWithTransactionTypeZeroAndItsOtherBitsKept() {
        int compressedPrepared = 1 | TransactionSysFlag.PREPARED_TYPE;
        assertEquals(1, HalfMessages.storedSysFlag(compressedPrepared));
    }
}
