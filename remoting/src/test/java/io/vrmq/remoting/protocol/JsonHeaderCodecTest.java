package io.vrmq.remoting.protocol;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.vrmq.remoting.protocol.CommandAssertions.MAX_HEADER_BYTES;
import static io.vrmq.remoting.protocol.CommandAssertions.frameAfterLength;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JSON header as the official encoder writes it (keys sorted, nulls left out) and as leniently as the official
 * decoder reads it.
 */
class JsonHeaderCodecTest {

    @Test
    void theHeaderIsWrittenExactlyAsTheOfficialEncoderWritesIt() {
        RemotingCommand command = new RemotingCommand(RequestCode.SEND_MESSAGE_V2, LanguageCode.JAVA, 513, 0, 0, "..",
            Map.of("a", "PG"), null, SerializeType.JSON);

        assertEquals("{\"code\":310,\"extFields\":{\"a\":\"PG\"},\"flag\":0,\"language\":\"JAVA\",\"opaque\":0,"
            + "\"remark\":\"..\",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":513}", headerText(command));
    }

    @Test
    void nullRemarkAndEmptyExtFieldsAreLeftOut() {
        RemotingCommand command = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 513, 7,
            RemotingCommand.RESPONSE_FLAG, null, null, null, SerializeType.JSON);

        assertEquals("{\"code\":0,\"flag\":1,\"language\":\"JAVA\",\"opaque\":7,"
            + "\"serializeTypeCurrentRPC\":\"JSON\",\"version\":513}", headerText(command));
    }

    @Test
    void extFieldsAreWrittenInAlphabeticalOrderWithoutNullValues() {
        Map<String, String> ext = new LinkedHashMap<>();
        ext.put("z", "1");
        ext.put("b", null);
        ext.put("a", "2");
        ext.put("m", "3");
        RemotingCommand command = RemotingCommand.request(RequestCode.PULL_MESSAGE, ext, null);

        assertTrue(headerText(command).startsWith("{\"code\":11,\"extFields\":{\"a\":\"2\",\"m\":\"3\",\"z\":\"1\"},"),
            headerText(command));
    }

    @Test
    void theOfficialExampleDecodesToItsFields() {
        RemotingCommand command = decodeHeader("{\"code\":310,\"extFields\":{\"a\":\"PG\"},\"flag\":0,"
            + "\"language\":\"JAVA\",\"opaque\":0,\"remark\":\"..\",\"serializeTypeCurrentRPC\":\"JSON\","
            + "\"version\":513}");

        assertEquals(310, command.code());
        assertEquals(LanguageCode.JAVA, command.language());
        assertEquals(513, command.version());
        assertEquals(0, command.opaque());
        assertEquals(0, command.flag());
        assertEquals("..", command.remark());
        assertEquals(Map.of("a", "PG"), command.extFields());
        assertEquals(SerializeType.JSON, command.serializeType());
    }

    @Test
    void numbersAndBooleansInExtFieldsAreReadAsTheirText() {
        RemotingCommand command = decodeHeader("{\"code\":11,\"extFields\":{\"queueId\":3,\"queueOffset\":"
            + "12345678901,\"ratio\":0.5,\"unitMode\":false,\"gone\":null}}");

        Map<String, String> expected = new HashMap<>();
        expected.put("queueId", "3");
        expected.put("queueOffset", "12345678901");
        expected.put("ratio", "0.5");
        expected.put("unitMode", "false");
        assertEquals(expected, command.extFields());
    }

    @Test
    void unknownFieldsAreSkippedWhateverTheirShape() {
        RemotingCommand command = decodeHeader("{\"future\":{\"nested\":[1,{\"x\":2}]},\"code\":34,"
            + "\"list\":[\"a\"],\"flag\":2,\"extra\":null,\"opaque\":5}");

        assertEquals(34, command.code());
        assertEquals(2, command.flag());
        assertEquals(5, command.opaque());
    }

    @Test
    void fieldsMayComeInAnyOrder() {
        RemotingCommand command = decodeHeader("{\"version\":401,\"remark\":\"r\",\"opaque\":77,"
            + "\"language\":\"CPP\",\"flag\":1,\"extFields\":{\"k\":\"v\"},\"code\":17}");

        assertEquals(17, command.code());
        assertEquals(LanguageCode.CPP, command.language());
        assertEquals(401, command.version());
        assertEquals(77, command.opaque());
        assertEquals(1, command.flag());
        assertEquals("r", command.remark());
        assertEquals(Map.of("k", "v"), command.extFields());
    }

    @Test
    void aLanguageGivenAsANumberIsReadAsThatLanguage() {
        assertEquals(LanguageCode.GO, decodeHeader("{\"code\":1,\"language\":9}").language());
    }

    @Test
    void anUnknownLanguageIsReadAsOther() {
        assertEquals(LanguageCode.OTHER, decodeHeader("{\"code\":1,\"language\":\"COBOL\"}").language());
        assertEquals(LanguageCode.OTHER, decodeHeader("{\"code\":1,\"language\":99}").language());
    }

    @Test
    void missingFieldsTakeTheirDefaults() {
        RemotingCommand command = decodeHeader("{}");

        assertEquals(0, command.code());
        assertEquals(LanguageCode.JAVA, command.language());
        assertEquals(0, command.opaque());
        assertNull(command.remark());
        assertTrue(command.extFields().isEmpty());
    }

    @Test
    void anExplicitNullRemarkAndNullExtFieldsAreRead() {
        RemotingCommand command = decodeHeader("{\"code\":1,\"remark\":null,\"extFields\":null}");

        assertNull(command.remark());
        assertTrue(command.extFields().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "[1,2]", "\"text\"", "{\"code\":1", "{\"code\":1,}",
        "{\"extFields\":\"text\"}", "{\"extFields\":{\"a\":{\"b\":1}}}", "{\"extFields\":{\"a\":[1]}}",
        "{\"code\":99999999999}"})
    void junkJsonIsMalformed(String header) {
        assertThrows(MalformedFrameException.class, () -> decodeHeader(header));
    }

    /** Skipping into such a value would read its inner fields as the header's own (a wrong opaque, say). */
    @ParameterizedTest
    @ValueSource(strings = {"{\"code\":{\"opaque\":9}}", "{\"remark\":{\"opaque\":9},\"opaque\":7}",
        "{\"language\":[\"JAVA\"]}", "{\"opaque\":[1],\"flag\":1}", "{\"flag\":{},\"version\":[]}"})
    void aHeaderFieldHoldingAnObjectOrArrayIsMalformed(String header) {
        MalformedFrameException error = assertThrows(MalformedFrameException.class, () -> decodeHeader(header));

        assertTrue(error.getMessage().contains("not a scalar"), error.getMessage());
    }

    private static String headerText(RemotingCommand command) {
        Buffer frame = CommandAssertions.afterLengthField(CommandCodec.encode(command));
        int headerLength = Frame.headerLength(frame.getInt(0));
        return frame.getString(Frame.HEADER_OFFSET_IN_FRAME, Frame.HEADER_OFFSET_IN_FRAME + headerLength, "UTF-8");
    }

    private static RemotingCommand decodeHeader(String json) {
        return CommandCodec.decode(frameAfterLength(SerializeType.JSON.code(),
            json.getBytes(StandardCharsets.UTF_8), new byte[0]), MAX_HEADER_BYTES);
    }
}
