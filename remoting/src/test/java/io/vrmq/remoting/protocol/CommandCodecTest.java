package io.vrmq.remoting.protocol;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static io.vrmq.remoting.protocol.CommandAssertions.MAX_HEADER_BYTES;
import static io.vrmq.remoting.protocol.CommandAssertions.assertSameCommand;
import static io.vrmq.remoting.protocol.CommandAssertions.frameAfterLength;
import static io.vrmq.remoting.protocol.CommandAssertions.roundTrip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frames through {@link CommandCodec}, both header types: what goes in comes out, and untrusted frames are refused. */
class CommandCodecTest {

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void everyHeaderFieldAndTheBodySurviveTheRoundTrip(SerializeType type) {
        Map<String, String> ext = new HashMap<>();
        ext.put("topic", "TopicTest");
        ext.put("queueId", "3");
        ext.put("properties", "TAGS\u0001TagA\u0002");
        RemotingCommand command = new RemotingCommand(RequestCode.SEND_MESSAGE_V2, LanguageCode.GO, 513, 123_456,
            RemotingCommand.ONEWAY_FLAG, "a remark", ext, Buffer.buffer("hello body"), type);

        assertSameCommand(command, roundTrip(command));
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void extremeNumbersSurviveTheRoundTrip(SerializeType type) {
        // The binary header holds code and version in 16 bits: the protocol's codes and versions all fit.
        RemotingCommand command = new RemotingCommand(Short.MAX_VALUE, LanguageCode.NODE_JS, Short.MAX_VALUE,
            Integer.MIN_VALUE, RemotingCommand.RESPONSE_FLAG | RemotingCommand.ONEWAY_FLAG, null, null, null, type);

        assertSameCommand(command, roundTrip(command));
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void aNullRemarkComesBackNull(SerializeType type) {
        RemotingCommand command = RemotingCommand.request(RequestCode.HEART_BEAT).withSerializeType(type);

        assertNull(roundTrip(command).remark());
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void emptyExtFieldsComeBackEmpty(SerializeType type) {
        RemotingCommand command = RemotingCommand.request(RequestCode.HEART_BEAT, Map.of(), null)
            .withSerializeType(type);

        assertTrue(roundTrip(command).extFields().isEmpty());
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void aFrameWithoutBodyDecodesWithANullBody(SerializeType type) {
        RemotingCommand command = RemotingCommand.request(RequestCode.HEART_BEAT, Map.of("a", "b"), Buffer.buffer())
            .withSerializeType(type);

        RemotingCommand decoded = roundTrip(command);

        assertFalse(decoded.hasBody());
        assertNull(decoded.body());
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void unicodeInRemarkKeysAndValuesSurvivesTheRoundTrip(SerializeType type) {
        Map<String, String> ext = Map.of("clé", "värde 世界", "emoji", "\uD83D\uDE80 rocket", "quote", "a\"b\\c\n");
        RemotingCommand command = new RemotingCommand(ResponseCode.SYSTEM_ERROR, LanguageCode.JAVA, 513, 9,
            RemotingCommand.RESPONSE_FLAG, "échec: 主题不存在 \uD83D\uDCA5", ext,
            Buffer.buffer("corps ✓", "UTF-8"), type);

        assertSameCommand(command, roundTrip(command));
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void theFrameLengthCountsHeaderWordHeaderAndBody(SerializeType type) {
        RemotingCommand command = RemotingCommand.request(RequestCode.PULL_MESSAGE, Map.of("k", "v"),
            Buffer.buffer(new byte[1_000])).withSerializeType(type);

        Buffer frame = CommandCodec.encode(command);
        int headerWord = frame.getInt(Frame.FRAME_LENGTH_BYTES);

        assertEquals(type.code(), Frame.serializeTypeCode(headerWord));
        assertEquals(frame.length() - Frame.FRAME_LENGTH_BYTES, frame.getInt(0));
        assertEquals(frame.length() - 8 - 1_000, Frame.headerLength(headerWord));
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void encodeHeadLeavesTheBodyToBeWrittenAfterIt(SerializeType type) {
        RemotingCommand command = RemotingCommand.request(RequestCode.SEND_MESSAGE, Map.of("k", "v"),
            Buffer.buffer("body bytes")).withSerializeType(type);

        Buffer head = CommandCodec.encodeHead(command);

        assertEquals(CommandCodec.encode(command), head.copy().appendBuffer(command.body()));
        assertEquals(head.length() - Frame.FRAME_LENGTH_BYTES + command.body().length(), head.getInt(0));
    }

    @Test
    void anUnknownSerializeTypeIsMalformed() {
        Buffer frame = frameAfterLength(2, "{}".getBytes(StandardCharsets.UTF_8), new byte[0]);

        MalformedFrameException error = assertThrows(MalformedFrameException.class,
            () -> CommandCodec.decode(frame, MAX_HEADER_BYTES));

        assertTrue(error.getMessage().contains("serialize type 2"), error.getMessage());
    }

    @Test
    void aHeaderLengthPastTheFrameIsMalformed() {
        Buffer frame = Buffer.buffer().appendInt(Frame.headerWord(SerializeType.JSON, 100))
            .appendString("{\"code\":1}");

        MalformedFrameException error = assertThrows(MalformedFrameException.class,
            () -> CommandCodec.decode(frame, MAX_HEADER_BYTES));

        assertTrue(error.getMessage().contains("100"), error.getMessage());
    }

    @Test
    void aHeaderOverMaxHeaderBytesIsMalformed() {
        Buffer frame = CommandAssertions.afterLengthField(CommandCodec.encode(RemotingCommand.request(
            RequestCode.HEART_BEAT, Map.of("k", "v"), null)));
        int headerLength = Frame.headerLength(frame.getInt(0));

        MalformedFrameException error = assertThrows(MalformedFrameException.class,
            () -> CommandCodec.decode(frame, headerLength - 1));

        assertTrue(error.getMessage().contains("maxHeaderBytes " + (headerLength - 1)), error.getMessage());
    }

    @Test
    void aHeaderOfExactlyMaxHeaderBytesIsAccepted() {
        Buffer frame = CommandAssertions.afterLengthField(CommandCodec.encode(RemotingCommand.request(
            RequestCode.HEART_BEAT, Map.of("k", "v"), null)));
        int headerLength = Frame.headerLength(frame.getInt(0));

        assertEquals(RequestCode.HEART_BEAT, CommandCodec.decode(frame, headerLength).code());
    }

    @Test
    void aFrameShorterThanTheHeaderWordIsMalformed() {
        assertThrows(MalformedFrameException.class,
            () -> CommandCodec.decode(Buffer.buffer(new byte[] {0, 0, 0}), MAX_HEADER_BYTES));
    }
}
