package io.vrmq.remoting.protocol;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;

import static io.vrmq.remoting.protocol.CommandAssertions.MAX_HEADER_BYTES;
import static io.vrmq.remoting.protocol.CommandAssertions.afterLengthField;
import static io.vrmq.remoting.protocol.CommandAssertions.frameAfterLength;
import static io.vrmq.remoting.protocol.CommandAssertions.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ROCKETMQ binary header against bytes written out by hand from the layout in PROTOCOL.md §1
 * ({@code int16 code | int8 language | int16 version | int32 opaque | int32 flag | int32 remarkLen + remark |
 * int32 extLen + {int16 keyLen, key, int32 valLen, val}*}), so that one bug in both directions cannot cancel out.
 */
class BinaryHeaderCodecTest {
    /** code 310, JAVA, version 513, opaque 7, flag 2 (oneway), remark "hi", extFields {a=PG}, body "xyz". */
    private static final byte[] GOLDEN_FRAME = {
        0, 0, 0, 39,                 // frame length: 4 + 32 + 3
        1, 0, 0, 32,                 // serialize type 1 (ROCKETMQ), header length 32
        0x01, 0x36,                  // code 310
        0,                           // language JAVA
        0x02, 0x01,                  // version 513
        0, 0, 0, 7,                  // opaque
        0, 0, 0, 2,                  // flag: oneway
        0, 0, 0, 2, 'h', 'i',        // remark
        0, 0, 0, 9,                  // extFields length: 2 + 1 + 4 + 2
        0, 1, 'a',                   // key
        0, 0, 0, 2, 'P', 'G',        // value
        'x', 'y', 'z'                // body
    };

    /** code 0 (SUCCESS), GO, version 401, opaque -1, flag 1 (response), no remark, no extFields, no body. */
    private static final byte[] GOLDEN_EMPTY_RESPONSE = {
        0, 0, 0, 25,                 // frame length: 4 + 21
        1, 0, 0, 21,                 // ROCKETMQ, header length 21
        0, 0,                        // code 0
        9,                           // language GO
        0x01, (byte) 0x91,           // version 401
        -1, -1, -1, -1,              // opaque -1
        0, 0, 0, 1,                  // flag: response
        0, 0, 0, 0,                  // remark: null
        0, 0, 0, 0                   // extFields: none
    };

    @Test
    void theEncoderWritesTheLayoutByteForByte() {
        RemotingCommand command = new RemotingCommand(310, LanguageCode.JAVA, 513, 7, RemotingCommand.ONEWAY_FLAG,
            "hi", Map.of("a", "PG"), Buffer.buffer("xyz"), SerializeType.ROCKETMQ);

        assertArrayEquals(GOLDEN_FRAME, CommandCodec.encode(command).getBytes());
    }

    @Test
    void theDecoderReadsTheLayoutByteForByte() {
        RemotingCommand command = CommandCodec.decode(afterLengthField(Buffer.buffer(GOLDEN_FRAME)),
            MAX_HEADER_BYTES);

        assertEquals(310, command.code());
        assertEquals(LanguageCode.JAVA, command.language());
        assertEquals(513, command.version());
        assertEquals(7, command.opaque());
        assertTrue(command.isOneway());
        assertEquals("hi", command.remark());
        assertEquals(Map.of("a", "PG"), command.extFields());
        assertEquals(Buffer.buffer("xyz"), command.body());
        assertEquals(SerializeType.ROCKETMQ, command.serializeType());
    }

    @Test
    void aNullRemarkIsWrittenAsLengthZero() {
        RemotingCommand response = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.GO, 401, -1,
            RemotingCommand.RESPONSE_FLAG, null, null, null, SerializeType.ROCKETMQ);

        assertArrayEquals(GOLDEN_EMPTY_RESPONSE, CommandCodec.encode(response).getBytes());
    }

    @Test
    void lengthZeroReadsAsNullRemarkAndNoExtFields() {
        RemotingCommand command = CommandCodec.decode(afterLengthField(Buffer.buffer(GOLDEN_EMPTY_RESPONSE)),
            MAX_HEADER_BYTES);

        assertEquals(LanguageCode.GO, command.language());
        assertEquals(401, command.version());
        assertEquals(-1, command.opaque());
        assertTrue(command.isResponse());
        assertNull(command.remark());
        assertTrue(command.extFields().isEmpty());
        assertNull(command.body());
    }

    @Test
    void anEmptyExtValueComesBackNullAsInRocketMq() {
        RemotingCommand command = RemotingCommand.request(RequestCode.SEND_MESSAGE, Map.of("empty", "", "k", "v"),
            null).withSerializeType(SerializeType.ROCKETMQ);

        RemotingCommand decoded = roundTrip(command);

        assertNull(decoded.ext("empty"));
        assertEquals("v", decoded.ext("k"));
    }

    @Test
    void anEmptyRemarkComesBackNull() {
        RemotingCommand command = RemotingCommand.failure(RemotingCommand.request(1), ResponseCode.SYSTEM_ERROR, "")
            .withSerializeType(SerializeType.ROCKETMQ);

        assertNull(roundTrip(command).remark());
    }

    @Test
    void anUnknownLanguageByteIsReadAsOther() {
        byte[] header = header(b -> b.setByte(2, (byte) 99));

        assertEquals(LanguageCode.OTHER, decode(header).language());
    }

    @Test
    void aHeaderShorterThanTheFixedFieldsIsMalformed() {
        byte[] header = new byte[12];

        assertThrows(MalformedFrameException.class, () -> decode(header));
    }

    @Test
    void aRemarkLengthPastTheEndIsMalformed() {
        byte[] header = Buffer.buffer().appendBytes(fixedFields()).appendInt(100).appendString("short")
            .appendInt(0).getBytes();

        MalformedFrameException error = assertThrows(MalformedFrameException.class, () -> decode(header));

        assertTrue(error.getMessage().contains("remark"), error.getMessage());
    }

    @Test
    void aNegativeRemarkLengthIsMalformed() {
        byte[] header = Buffer.buffer().appendBytes(fixedFields()).appendInt(-1).appendInt(0).getBytes();

        assertThrows(MalformedFrameException.class, () -> decode(header));
    }

    @Test
    void aMissingExtFieldsLengthIsMalformed() {
        byte[] header = Buffer.buffer().appendBytes(fixedFields()).appendInt(0).appendShort((short) 0).getBytes();

        MalformedFrameException error = assertThrows(MalformedFrameException.class, () -> decode(header));

        assertTrue(error.getMessage().contains("extFields"), error.getMessage());
    }

    @Test
    void anExtFieldsLengthPastTheEndIsMalformed() {
        byte[] header = Buffer.buffer().appendBytes(fixedFields()).appendInt(0).appendInt(50)
            .appendShort((short) 1).appendString("k").appendInt(1).appendString("v").getBytes();

        assertThrows(MalformedFrameException.class, () -> decode(header));
    }

    @Test
    void anExtKeyLengthPastTheEndIsMalformed() {
        Buffer entries = Buffer.buffer().appendShort((short) 40).appendString("k");
        byte[] header = Buffer.buffer().appendBytes(fixedFields()).appendInt(0).appendInt(entries.length())
            .appendBuffer(entries).getBytes();

        MalformedFrameException error = assertThrows(MalformedFrameException.class, () -> decode(header));

        assertTrue(error.getMessage().contains("ext key"), error.getMessage());
    }

    @Test
    void anExtValueLengthPastTheEndIsMalformed() {
        Buffer entries = Buffer.buffer().appendShort((short) 1).appendString("k").appendInt(1_000)
            .appendString("v");
        byte[] header = Buffer.buffer().appendBytes(fixedFields()).appendInt(0).appendInt(entries.length())
            .appendBuffer(entries).getBytes();

        MalformedFrameException error = assertThrows(MalformedFrameException.class, () -> decode(header));

        assertTrue(error.getMessage().contains("ext value"), error.getMessage());
    }

    @Test
    void anExtEntryCutInsideItsValueLengthIsMalformed() {
        Buffer entries = Buffer.buffer().appendShort((short) 1).appendString("k").appendShort((short) 0);
        byte[] header = Buffer.buffer().appendBytes(fixedFields()).appendInt(0).appendInt(entries.length())
            .appendBuffer(entries).getBytes();

        assertThrows(MalformedFrameException.class, () -> decode(header));
    }

    @Test
    void theGoldenHeaderCutAtAnyByteIsMalformed() {
        byte[] header = header(b -> { });
        for (int length = 0; length < header.length; length++) {
            byte[] cut = Arrays.copyOf(header, length);
            assertThrows(MalformedFrameException.class, () -> decode(cut), "header cut to " + length + " bytes");
        }
    }

    /** code, language, version, opaque, flag of a request: 13 bytes. */
    private static byte[] fixedFields() {
        return Buffer.buffer().appendShort((short) 34).appendByte((byte) 0).appendShort((short) 513).appendInt(1)
            .appendInt(0).getBytes();
    }

    /** The golden frame's header, after {@code edit}. */
    private static byte[] header(Consumer<Buffer> edit) {
        Buffer header = Buffer.buffer(GOLDEN_FRAME).getBuffer(8, 8 + 32);
        edit.accept(header);
        return header.getBytes();
    }

    private static RemotingCommand decode(byte[] header) {
        return CommandCodec.decode(frameAfterLength(SerializeType.ROCKETMQ.code(), header,
            "body".getBytes(StandardCharsets.UTF_8)), MAX_HEADER_BYTES);
    }
}
