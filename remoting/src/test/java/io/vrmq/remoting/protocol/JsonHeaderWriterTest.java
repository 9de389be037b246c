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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /** A map that iterates in key order (the send answer's) is written as it iterates; any other one sorted. */
    @Test
    void aMapInKeyOrderAndOneOutOfOrderAreBothWrittenAsJacksonWritesThem() throws IOException {
        Map<String, String> inOrder = new LinkedHashMap<>();
        inOrder.put("MSG_REGION", "DefaultRegion");
        inOrder.put("TRACE_ON", "true");
        inOrder.put("msgId", "7F00000100002A9F0000000000012345");
        inOrder.put("queueId", "3");
        inOrder.put("queueOffset", null);
        inOrder.put("transactionId", "7F000001B3C818B4AAC2");
        Map<String, String> outOfOrder = new LinkedHashMap<>();
        outOfOrder.put("msgId", "x");
        outOfOrder.put("MSG_REGION", "DefaultRegion");
        outOfOrder.put("a", null);
        outOfOrder.put("TRACE_ON", "true");
        Map<String, String> lateOutOfOrder = new LinkedHashMap<>(inOrder);
        lateOutOfOrder.put("b", "written before msgId");
        for (Map<String, String> fields : List.of(inOrder, outOfOrder, lateOutOfOrder)) {
            RemotingCommand command = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 453, 99,
                RemotingCommand.RESPONSE_FLAG, null, fields, null, SerializeType.JSON);

            assertEquals(jackson(command), written(command));
        }
    }

    /** Random headers (random keys, any chars, nulls, every kind of map) against the Jackson generator. */
    @Test
    void randomHeadersAreWrittenAsJacksonWritesThem() throws IOException {
        Random random = new Random(15);
        for (int round = 0; round < 2_000; round++) {
            int fieldCount = random.nextInt(20);
            List<String> keys = new ArrayList<>();
            for (int index = 0; index < fieldCount; index++) {
                keys.add(randomText(random, 1 + random.nextInt(12)));
            }
            int kind = random.nextInt(4);
            if (kind == 1) {
                Collections.sort(keys);
            } else if (kind == 2) {
                Collections.shuffle(keys, random);
            }
            Map<String, String> fields = kind == 3 ? new HashMap<>() : new LinkedHashMap<>();
            for (String key : keys) {
                fields.put(key, random.nextInt(8) == 0 ? null : randomText(random, random.nextInt(40)));
            }
            String remark = random.nextBoolean() ? null : randomText(random, random.nextInt(60));
            LanguageCode language = LanguageCode.values()[random.nextInt(LanguageCode.values().length)];
            RemotingCommand command = new RemotingCommand(random.nextInt(), language, random.nextInt(),
                random.nextInt(), random.nextInt(), remark, random.nextBoolean() ? fields
                : Collections.unmodifiableMap(fields), null, SerializeType.JSON);

            assertEquals(jackson(command), written(command), command.toString());
            Buffer frame = CommandCodec.encode(command);
            assertEquals(frame.length() - Frame.FRAME_LENGTH_BYTES, frame.getInt(0));
            RemotingCommand decoded = CommandCodec.decode(frame.slice(Frame.FRAME_LENGTH_BYTES, frame.length()),
                Integer.MAX_VALUE);
            Map<String, String> sent = new HashMap<>(fields);
            sent.values().removeIf(Objects::isNull);
            assertEquals(sent, new HashMap<>(decoded.extFields()));
            assertEquals(remark, decoded.remark());
            assertEquals(command.opaque(), decoded.opaque());
        }
    }

    /** A header larger than the scratch array keeps, then a small one on the same thread: both whole. */
    @Test
    void aHugeHeaderGrowsTheScratchArrayAndTheNextHeaderIsStillExact() throws IOException {
        String huge = "\u4e2d\n".repeat(JsonHeaderWriter.SCRATCH_KEPT_MAX_BYTES / 2);
        RemotingCommand big = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 453, 1,
            RemotingCommand.RESPONSE_FLAG, huge, Map.of("k", huge), null, SerializeType.JSON);
        RemotingCommand small = new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 453, 2,
            RemotingCommand.RESPONSE_FLAG, null, Map.of("queueId", "1"), null, SerializeType.JSON);

        assertEquals(jackson(big), written(big));
        assertEquals(jackson(small), written(small));
        Buffer head = CommandCodec.encodeHead(small);
        assertEquals(Frame.FRAME_LENGTH_BYTES + Frame.HEADER_WORD_BYTES + jackson(small).length(), head.length());
        assertEquals(jackson(big), written(big));
    }

    private static String randomText(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int index = 0; index < length; index++) {
            int pick = random.nextInt(10);
            char c;
            if (pick < 6) {
                c = (char) (0x20 + random.nextInt(0x60));
            } else if (pick == 6) {
                c = (char) random.nextInt(0x20);
            } else if (pick == 7) {
                c = (char) (0x80 + random.nextInt(0x780));
            } else if (pick == 8) {
                c = (char) (0x800 + random.nextInt(0xF800));
            } else {
                c = "\"\\\u0001\u0002\u007f".charAt(random.nextInt(5));
            }
            text.append(c);
        }
        return text.toString();
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
