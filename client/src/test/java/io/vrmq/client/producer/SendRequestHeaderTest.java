package io.vrmq.client.producer;

import io.vertx.core.buffer.Buffer;
import io.vrmq.client.MessageQueue;
import io.vrmq.remoting.message.MessageProperties;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class SendRequestHeaderTest {

    @Test
    void everyLetterOfTheV2HeaderIsFilled() {
        PreparedSend send = new PreparedSend("T", Buffer.buffer("x"), 5, Map.of("TAGS", "A"), 0x301, false, "ID");

        Map<String, String> header = SendRequestHeader.of("PG", send, new MessageQueue("T", "b", 3), 4, 1234L);

        assertEquals("PG", header.get("a"));
        assertEquals("T", header.get("b"));
        assertEquals("TBW102", header.get("c"));
        assertEquals("4", header.get("d"));
        assertEquals("3", header.get("e"));
        assertEquals("769", header.get("f"));
        assertEquals("1234", header.get("g"));
        assertEquals("5", header.get("h"));
        assertEquals("TAGS\u0001A\u0002", header.get("i"));
        assertEquals("0", header.get("j"));
        assertEquals("false", header.get("k"));
        assertEquals("false", header.get("m"));
        assertEquals("b", header.get("n"));
        assertFalse(header.containsKey("l"));
    }

    @Test
    void aRetryTopicSendCarriesTheReconsumeCountersInTheHeader() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("RECONSUME_TIME", "2");
        properties.put("MAX_RECONSUME_TIMES", "16");
        properties.put("KEYS", "k");
        PreparedSend send = new PreparedSend("%RETRY%G", Buffer.buffer("x"), 0, properties, 0, false, "ID");

        Map<String, String> header = SendRequestHeader.of("PG", send, new MessageQueue("%RETRY%G", "b", 0), 4, 1L);

        assertEquals("2", header.get("j"));
        assertEquals("16", header.get("l"));
        assertEquals(Map.of("KEYS", "k"), MessageProperties.parse(header.get("i")));
    }
}
