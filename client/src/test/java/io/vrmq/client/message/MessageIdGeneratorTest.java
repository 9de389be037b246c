package io.vrmq.client.message;

import org.junit.jupiter.api.Test;

import java.util.Calendar;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessageIdGeneratorTest {

    @Test
    void anIpv4IdIs32UppercaseHexCharactersWithIpPidAndLoaderFirst() {
        MessageIdGenerator ids = new MessageIdGenerator(new byte[] {10, 0, 0, 7}, 0x1234, 0xCAFEBABE,
            System::currentTimeMillis);

        String id = ids.next();

        assertEquals(32, id.length());
        assertTrue(id.startsWith("0A0000071234CAFEBABE"), id);
        assertEquals(id, id.toUpperCase());
    }

    @Test
    void anIpv6IdIs56Characters() {
        MessageIdGenerator ids = new MessageIdGenerator(new byte[16], 1, 1, System::currentTimeMillis);

        assertEquals(56, ids.next().length());
    }

    @Test
    void theTimeFieldCountsMillisecondsSinceTheMonthStarted() {
        Calendar calendar = Calendar.getInstance();
        calendar.set(2026, Calendar.MARCH, 1, 0, 0, 0);
        calendar.set(Calendar.MILLISECOND, 0);
        long monthStart = calendar.getTimeInMillis();
        AtomicLong clock = new AtomicLong(monthStart + 123_456);
        MessageIdGenerator ids = new MessageIdGenerator(new byte[] {1, 2, 3, 4}, 1, 1, clock::get);

        String id = ids.next();

        byte[] bytes = HexFormat.of().parseHex(id);
        int sinceMonthStart = ((bytes[10] & 0xFF) << 24) | ((bytes[11] & 0xFF) << 16) | ((bytes[12] & 0xFF) << 8)
            | (bytes[13] & 0xFF);
        assertEquals(123_456, sinceMonthStart);
    }

    @Test
    void consecutiveIdsDifferInTheCounter() {
        AtomicLong clock = new AtomicLong(1_772_323_200_000L);
        MessageIdGenerator ids = new MessageIdGenerator(new byte[] {1, 2, 3, 4}, 1, 1, clock::get);

        String first = ids.next();
        String second = ids.next();

        assertNotEquals(first, second);
        assertEquals(first.substring(0, 28), second.substring(0, 28));
        assertEquals(Integer.parseInt(first.substring(28), 16) + 1, Integer.parseInt(second.substring(28), 16));
    }
}
