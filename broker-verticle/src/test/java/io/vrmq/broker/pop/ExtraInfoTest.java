package io.vrmq.broker.pop;

import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The receipt format RocketMQ's ExtraInfoUtil reads and writes, and the POP topic names. */
class ExtraInfoTest {

    /** The broker writes the 8-field form with the popped topic's marker; parsing gives every field back. */
    @Test
    void theEightFieldFormRoundTrips() {
        String receipt = ExtraInfo.format(5, 1_700_000_000_000L, 30_000, 3, "%RETRY%CG_Topic", "broker-a", 0, 7);
        assertEquals("5 1700000000000 30000 3 1 broker-a 0 7", receipt);
        ExtraInfo parsed = ExtraInfo.parse(receipt);
        assertEquals(new ExtraInfo(5, 1_700_000_000_000L, 30_000, 3, "1", "broker-a", 0, 7), parsed);
        assertEquals(1_700_000_030_000L, parsed.reviveTimeMs());
    }

    /** The older 7-field form has no queue offset; 999 marks an orderly pop. */
    @Test
    void theSevenFieldFormHasNoQueueOffset() {
        ExtraInfo parsed = ExtraInfo.parse("0 10 20 999 0 b 2");
        assertEquals(ExtraInfo.NO_QUEUE_OFFSET, parsed.queueOffset());
        assertTrue(parsed.isOrder());
    }

    /** A receipt that is not one is the client's error: SYSTEM_ERROR, as RocketMQ answers its exception. */
    @Test
    void aMalformedReceiptIsRefusedWithSystemError() {
        for (String bad : new String[] {null, "", "1 2 3", "a 2 3 4 0 b 1 2", "1 2 3 x 0 b 1"}) {
            RemotingCommandException refused = assertThrows(RemotingCommandException.class,
                () -> ExtraInfo.parse(bad), String.valueOf(bad));
            assertEquals(ResponseCode.SYSTEM_ERROR, refused.responseCode());
        }
    }

    /** Retry topics V1 and V2 and their markers, and the way back to the original topic. */
    @Test
    void retryTopicNamesAndMarkers() {
        assertEquals("%RETRY%CG_T", PopNames.retryTopic("T", "CG", false));
        assertEquals("%RETRY%CG+T", PopNames.retryTopic("T", "CG", true));
        assertEquals("0", PopNames.marker("T"));
        assertEquals("1", PopNames.marker("%RETRY%CG_T"));
        assertEquals("2", PopNames.marker("%RETRY%CG+T"));
        assertEquals("%RETRY%CG+T", PopNames.realTopic("T", "CG", "2"));
        assertEquals("T", PopNames.originTopic("%RETRY%CG_T", "CG"));
        assertEquals("T_x", PopNames.originTopic("%RETRY%CG_T_x", "CG"));
        assertEquals(null, PopNames.originTopic("%RETRY%CG", "CG"), "the 4.x retry topic is no POP one");
        assertEquals(null, PopNames.originTopic("%RETRY%OTHER_T", "CG"));
        assertEquals("rmq_sys_REVIVE_LOG_DefaultCluster", PopNames.reviveTopic("DefaultCluster"));
    }
}
