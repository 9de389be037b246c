package io.vrmq.broker.recall;

import io.vrmq.remoting.message.MessageConst;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Base64;
import java.util.Map;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class RecallHandleTest {
    /** URL-safe Base64 with padding of "v1 TopicA broker-a 1700000001001 7F0000010001ABCD" (computed elsewhere). */
    private static final String KNOWN = "djEgVG9waWNBIGJyb2tlci1hIDE3MDAwMDAwMDEwMDEgN0YwMDAwMDEwMDAxQUJDRA==";

    @Test
    void buildsRocketMqsV1TextAndDecodesIt() {
        assertEquals(KNOWN, RecallHandle.build("TopicA", "broker-a", "1700000001001", "7F0000010001ABCD"));
        RecallHandle handle = RecallHandle.decode(KNOWN);
        assertEquals(new RecallHandle("TopicA", "broker-a", "1700000001001", "7F0000010001ABCD"), handle);
        assertEquals(1_700_000_001_001L, handle.timestampMs());
    }

    @Test
    void aStoredTimerSendGetsTheSlotPlusOneAndItsUniqKey() {
        Map<String, String> stored = Map.of(MessageConst.TIMER_OUT_MS, "1700000001000", MessageConst.REAL_TOPIC,
            "TopicA", MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "7F0000010001ABCD");
        assertEquals(KNOWN, RecallHandle.forStoredSend(stored, "broker-a"));
    }

    @Test
    void otherSendsGetNoHandle() {
        assertNull(RecallHandle.forStoredSend(Map.of(MessageConst.REAL_TOPIC, "TopicA"), "broker-a"), "delay level");
        assertNull(RecallHandle.forStoredSend(Map.of(MessageConst.TIMER_OUT_MS, "1000"), "broker-a"), "delivered");
        assertNull(RecallHandle.forStoredSend(Map.of(MessageConst.TIMER_OUT_MS, "1000", MessageConst.REAL_TOPIC,
            "%RETRY%G"), "broker-a"), "retry topic");
    }

    @Test
    void anythingButAV1HandleIsInvalid() {
        for (String bad : new String[] {"", "not base64!", encode("v2 T b 1 X"), encode("v1 T b 1"), encode("")}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> RecallHandle.decode(bad), bad);
            assertEquals("recall handle is invalid", refused.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> RecallHandle.decode(null));
        assertEquals(-1, RecallHandle.decode(encode("v1 T b soon X")).timestampMs());
    }

    private static String encode(String raw) {
        return Base64.getUrlEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }
}
