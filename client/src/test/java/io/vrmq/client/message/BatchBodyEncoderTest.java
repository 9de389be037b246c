package io.vrmq.client.message;

import io.vertx.core.buffer.Buffer;
import io.vrmq.client.Message;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BatchBodyEncoderTest {

    @Test
    void messagesAreLaidOutBackToBackInTheOfficialLayout() {
        Message first = Message.of("T", new byte[] {1, 2, 3}).withFlag(9);
        Message second = Message.of("T", new byte[] {4});
        String firstProperties = "TAGS\u0001A\u0002";

        Buffer body = BatchBodyEncoder.encode(List.of(first, second), List.of(Map.of("TAGS", "A"), Map.of()));

        int firstSize = 4 + 4 + 4 + 4 + 4 + 3 + 2 + firstProperties.length();
        assertEquals(firstSize, body.getInt(0));
        assertEquals(0, body.getInt(4), "magic");
        assertEquals(0, body.getInt(8), "body crc");
        assertEquals(9, body.getInt(12), "flag");
        assertEquals(3, body.getInt(16), "body length");
        assertEquals(firstProperties.length(), body.getShort(23));
        assertEquals(firstProperties, body.getString(25, 25 + firstProperties.length(), StandardCharsets.UTF_8.name()));
        assertEquals(4 + 4 + 4 + 4 + 4 + 1 + 2, body.getInt(firstSize));
        assertEquals(firstSize + 23, body.length());
    }
}
