package io.vrmq.broker.processor;

import io.vrmq.broker.trace.TraceStamp;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The in-place reading of a send's properties against the map path it replaces (parse, add CLUSTER and the trace
 * stamp, format, read WAIT and UNIQ_KEY): wherever it answers, it answers what the map path stores and reads.
 */
class PlainSendPropertiesTest {
    private static final String CLUSTER = "DefaultCluster";
    private static final String SUFFIX = PlainSendProperties.brokerSuffix(CLUSTER, TraceStamp.DEFAULT_REGION,
        TraceStamp.TRACE_ON);
    private static final char NAME_END = MessageProperties.NAME_VALUE_SEPARATOR;
    private static final char PAIR_END = MessageProperties.PROPERTY_SEPARATOR;

    /** What the official 5.5.0 producer sends (captured frame: the last pair without its separator). */
    @Test
    void theOfficialClientsPropertiesAreReadInPlace() {
        String sent = "KEYS\u0001order-12345\u0002UNIQ_KEY\u00017F0000010D2A18B4AAC2123456780000\u0002"
            + "WAIT\u0001true\u0002TAGS\u0001TagA";
        PlainSendProperties plain = PlainSendProperties.scanOrNull(sent, SUFFIX);
        assertNotNull(plain);
        assertEquals(sent + "\u0002CLUSTER\u0001DefaultCluster\u0002MSG_REGION\u0001DefaultRegion\u0002"
            + "TRACE_ON\u0001true\u0002", plain.storedText());
        assertEquals("7F0000010D2A18B4AAC2123456780000", plain.uniqKey());
        assertEquals(true, plain.isWaitFlush());
        assertSameAsMapPath(sent);
    }

    @Test
    void waitFalseAndNoPropertiesAtAll() {
        PlainSendProperties noWait = PlainSendProperties.scanOrNull("WAIT\u0001false\u0002", SUFFIX);
        assertEquals(false, noWait.isWaitFlush());
        assertNull(noWait.uniqKey());
        assertSameAsMapPath("WAIT\u0001false\u0002");
        assertSameAsMapPath("WAIT\u0001False\u0002");
        assertSameAsMapPath("WAIT\u0001falsey\u0002");
        assertSameAsMapPath(null);
        assertSameAsMapPath("");
        assertSameAsMapPath("K\u0001\u0002");
        assertSameAsMapPath("K\u0001a\u0001b\u0002");
        assertEquals(SUFFIX, PlainSendProperties.scanOrNull(null, SUFFIX).storedText());
    }

    /** Delay, timer, transaction and the broker's own names go down the map path, which routes or replaces them. */
    @Test
    void routedOrRewrittenNamesTakeTheMapPath() {
        for (String name : List.of(MessageConst.DELAY_TIME_LEVEL, MessageConst.TRANSACTION_PREPARED,
            MessageConst.TIMER_DELIVER_MS, MessageConst.TIMER_DELAY_SEC, MessageConst.TIMER_DELAY_MS,
            MessageConst.TIMER_OUT_MS, MessageConst.START_DELIVER_TIME, MessageConst.REAL_TOPIC,
            MessageConst.REAL_QUEUE_ID, MessageConst.CLUSTER, MessageConst.MSG_REGION, MessageConst.TRACE_SWITCH)) {
            assertNull(PlainSendProperties.scanOrNull("KEYS\u0001k\u0002" + name + "\u00013\u0002", SUFFIX), name);
        }
    }

    /** Texts the map path would not store as sent (dropped pairs, a name twice) take the map path. */
    @Test
    void malformedOrDuplicatedPairsTakeTheMapPath() {
        for (String odd : List.of("\u0002", "A\u0001b\u0002\u0002", "\u0001b\u0002", "Ab\u0002", "A\u0001b\u0002C",
            "A\u0001b\u0002A\u0001c\u0002", "\u0002A\u0001b")) {
            assertNull(PlainSendProperties.scanOrNull(odd, SUFFIX), odd);
        }
        StringBuilder many = new StringBuilder();
        for (int pair = 0; pair <= PlainSendProperties.MAX_PAIRS; pair++) {
            many.append("K").append(pair).append(NAME_END).append("v").append(PAIR_END);
        }
        assertNull(PlainSendProperties.scanOrNull(many.toString(), SUFFIX));
    }

    /** Random texts over the separators and the names that matter: in-place and map path never disagree. */
    @Test
    void randomTextsNeverDisagreeWithTheMapPath() {
        Random random = new Random(15);
        String[] pieces = {"A", "B", "KEYS", "UNIQ_KEY", "WAIT", "false", "true", "DELAY", "TAGS", "x y", "\u00e9",
            String.valueOf(NAME_END), String.valueOf(PAIR_END)};
        int plainCount = 0;
        for (int round = 0; round < 50_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(14);
            for (int piece = 0; piece < length; piece++) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            if (assertSameAsMapPath(text.toString())) {
                plainCount++;
            }
        }
        assertEquals(true, plainCount > 1_000, "too few random texts were read in place: " + plainCount);
    }

    /** True when the text was read in place (and agreed with the map path). */
    private static boolean assertSameAsMapPath(String sent) {
        PlainSendProperties plain = PlainSendProperties.scanOrNull(sent, SUFFIX);
        if (plain == null) {
            return false;
        }
        Map<String, String> map = MessageProperties.parse(sent);
        map.put(MessageConst.CLUSTER, CLUSTER);
        TraceStamp.stamp(map);
        assertEquals(MessageProperties.format(map), plain.storedText(), () -> "stored text of " + sent);
        assertEquals(map.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX), plain.uniqKey(), () -> "UNIQ_KEY of " + sent);
        assertEquals(!"false".equals(map.get(MessageConst.WAIT_STORE_MSG_OK)), plain.isWaitFlush(),
            () -> "WAIT of " + sent);
        return true;
    }
}
