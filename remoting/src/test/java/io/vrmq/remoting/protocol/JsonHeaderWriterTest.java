package io.vrmq.remoting.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-written header is byte for byte what the Jackson generator the codec used before wrote (Jackson is the
 * oracle here: its escapes and UTF-8 are standard JSON), and it decodes back to the command.
 */
class JsonHeaderWriterTest {
    private static final JsonFactory JSON = JsonFactory.builder().build();

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "quote \" backslash \\ slash /", "tab\tnew\nline\rcr\bbs\fff",
        "\u0000\u0001\u0002\u001f\u007f", "caf\u00e9 \u00ff \u0100 \u07ff", "\u0800 \u4e2d\u6587 \uffff",
        "\ud83d\ude00 emoji \ud800\udc00 \udbff\udfff", "TAGS\u0001a\u0002KEYS\u0001b\u0002"})
    void stringsAreWrittenAsJacksonWritesThem(String text) throws IOException {
        RemotingCommand command = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 453, 17,
            RemotingCommand.RESPONSE_FLAG, text, Map.of("k", text, text.isEmpty() ? "e" : text, "v"), null,
            SerializeType.JSON);

        assertEquals(jackson(command), written(command));
        Buffer header = Buffer.buffer(written(command));
        RemotingCommand decoded = JsonHeaderCodec.decodeGeneral(header, 0, header.length(), null);
        assertEquals(text, decoded.remark());
        assertEquals(text, decoded.ext("k"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 9, 10, 99, 100, 12345, -1, -10, -987654321, Integer.MAX_VALUE, Integer.MIN_VALUE})
    void numbersAreWrittenAsJacksonWritesThem(int number) throws IOException {
        RemotingCommand command = new RemotingCommand(number, LanguageCode.JAVA, number, number, number, null,
            null, null, SerializeType.JSON);

        assertEquals(jackson(command), written(command));
    }

    @Test
    void aSendAnswerWithNullValuesAndManyFieldsIsWrittenAsJacksonWritesIt() throws IOException {
        Map<String, String> fields = new HashMap<>();
        fields.put("msgId", "7F00000100002A9F0000000000012345");
        fields.put("queueId", "3");
        fields.put("queueOffset", "123456");
        fields.put("transactionId", null);
        fields.put("MSG_REGION", "DefaultRegion");
        fields.put("TRACE_ON", "true");
        RemotingCommand command = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 453, 99,
            RemotingCommand.RESPONSE_FLAG, null, fields, null, SerializeType.JSON);

        assertEquals(jackson(command), written(command));
    }

    /** The head's buffer is sized from the estimate: an ASCII header without escapes must never write more. */
    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 0, 7, Integer.MAX_VALUE})
    void theEstimateIsNeverBelowWhatAnAsciiHeaderWrites(int number) {
        Map<String, String> sendAnswer = new HashMap<>();
        sendAnswer.put("msgId", "7F00000100002A9F0000000000012345");
        sendAnswer.put("queueId", Integer.toString(number));
        sendAnswer.put("queueOffset", Long.toString(Long.MIN_VALUE));
        sendAnswer.put("transactionId", "7F000001B3C818B4AAC2" + "1".repeat(12));
        sendAnswer.put("MSG_REGION", "DefaultRegion");
        sendAnswer.put("TRACE_ON", null);
        Map<String, String> pullAnswer = Map.of("suggestWhichBrokerId", "0", "nextBeginOffset", "12",
            "minOffset", "0", "maxOffset", Long.toString(Long.MAX_VALUE));
        for (LanguageCode language : LanguageCode.values()) {
            for (RemotingCommand command : new RemotingCommand[] {
                new RemotingCommand(number, language, number, number, number, null, null, null, SerializeType.JSON),
                new RemotingCommand(number, language, number, number, number, "PULL_NOT_FOUND", pullAnswer, null,
                    SerializeType.JSON),
                new RemotingCommand(number, language, number, number, number, "", sendAnswer, null,
                    SerializeType.JSON)}) {
                int written = Buffer.buffer(written(command)).length();
                assertTrue(JsonHeaderWriter.estimatedBytes(command) >= written,
                    JsonHeaderWriter.estimatedBytes(command) + " < " + written + " for " + written(command));
            }
        }
    }

    @Test
    void loneSurrogatesAreEscapedAsJacksonEscapesThem() throws IOException {
        RemotingCommand command = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 453, 1,
            RemotingCommand.RESPONSE_FLAG, "a\ud800b\udc00", null, null, SerializeType.JSON);

        assertEquals(jackson(command), written(command));
        Buffer header = Buffer.buffer(written(command));
        assertEquals("a\ud800b\udc00", JsonHeaderCodec.decodeGeneral(header, 0, header.length(), null).remark());
    }

    private static String written(RemotingCommand command) {
        Buffer out = Buffer.buffer();
        JsonHeaderWriter.write(command, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** What JsonHeaderCodec.encode wrote with a Jackson generator before the hand-written writer. */
    private static String jackson(RemotingCommand command) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeNumberField("code", command.code());
            if (!command.extFields().isEmpty()) {
                json.writeObjectFieldStart("extFields");
                String[] names = command.extFields().keySet().toArray(new String[0]);
                Arrays.sort(names);
                for (String name : names) {
                    String value = command.extFields().get(name);
                    if (value != null) {
                        json.writeStringField(name, value);
                    }
                }
                json.writeEndObject();
            }
            json.writeNumberField("flag", command.flag());
            json.writeStringField("language", command.language().name());
            json.writeNumberField("opaque", command.opaque());
            if (command.remark() != null) {
                json.writeStringField("remark", command.remark());
            }
            json.writeStringField("serializeTypeCurrentRPC", SerializeType.JSON.name());
            json.writeNumberField("version", command.version());
            json.writeEndObject();
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
