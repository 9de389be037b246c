package io.vrmq.remoting.protocol;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.vrmq.remoting.protocol.CommandAssertions.MAX_HEADER_BYTES;
import static io.vrmq.remoting.protocol.CommandAssertions.assertSameCommand;
import static io.vrmq.remoting.protocol.CommandAssertions.frameAfterLength;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The in-place JSON header reader against the general (Jackson) decoder: on frames the official 4.9.8 and 5.5.0
 * clients built (captured with their own {@code RemotingCommand.encodeHeader}, in test resources), on hand-written
 * odd headers, and on thousands of damaged ones, the codec's answer (command or error) must be the general decoder's.
 */
class JsonHeaderScannerTest {
    private static final String[] OFFICIAL_FRAMES = {"rocketmq-5.5.0-send-v2", "rocketmq-4.9.8-send-v2",
        "rocketmq-5.5.0-pull", "rocketmq-4.9.8-pull", "rocketmq-5.5.0-heartbeat", "rocketmq-4.9.8-heartbeat",
        "rocketmq-5.5.0-send-v2-unicode", "rocketmq-4.9.8-send-v2-unicode"};
    private static final String SEND_HEADER = "{\"code\":310,\"extFields\":{\"a\":\"PG\",\"b\":\"T\",\"c\":\"TBW102\","
        + "\"d\":\"4\",\"e\":\"3\",\"f\":\"0\",\"g\":\"1764627600000\",\"h\":\"0\",\"i\":\"KEYS\\u0001k1\\u0002WAIT"
        + "\\u0001true\",\"j\":\"0\",\"k\":\"false\",\"m\":\"false\"},\"flag\":0,\"language\":\"JAVA\",\"opaque\":-7,"
        + "\"serializeTypeCurrentRPC\":\"JSON\",\"version\":513}";

    @ParameterizedTest
    @ValueSource(strings = {"rocketmq-5.5.0-send-v2", "rocketmq-4.9.8-send-v2", "rocketmq-5.5.0-pull",
        "rocketmq-4.9.8-pull", "rocketmq-5.5.0-heartbeat", "rocketmq-4.9.8-heartbeat",
        "rocketmq-5.5.0-send-v2-unicode", "rocketmq-4.9.8-send-v2-unicode"})
    void theOfficialClientsFramesAreReadInPlaceWithTheGeneralDecodersResult(String name) throws IOException {
        Buffer frame = officialFrame(name);

        RemotingCommand inPlace = scan(frame);

        assertNotNull(inPlace, "read in place");
        assertSameCommand(general(frame), inPlace);
        assertSameCommand(general(frame), CommandCodec.decode(frame, MAX_HEADER_BYTES));
    }

    @Test
    void anOfficialSendDecodesToTheFieldsTheClientSet() throws IOException {
        RemotingCommand command = CommandCodec.decode(officialFrame("rocketmq-5.5.0-send-v2"), MAX_HEADER_BYTES);

        assertInstanceOf(JsonHeaderFieldTable.class, command.extFields());
        assertEquals(RequestCode.SEND_MESSAGE_V2, command.code());
        assertEquals("BenchProducerGroup", command.ext("a"));
        assertEquals("KEYS\u0001order-12345\u0002UNIQ_KEY\u00017F0000010D2A18B4AAC2123456780000\u0002WAIT\u0001true"
            + "\u0002TAGS\u0001TagA", command.ext("i"));
        assertEquals(7, command.header().requiredInt("e"));
        assertEquals(1764627600000L, command.header().requiredLong("g"));
        assertEquals(64, command.body().length());
    }

    @Test
    void unicodePropertiesBesideEscapesAreReadInPlace() throws IOException {
        Buffer frame = officialFrame("rocketmq-5.5.0-send-v2-unicode");

        assertNotNull(scan(frame));
        RemotingCommand command = CommandCodec.decode(frame, MAX_HEADER_BYTES);
        assertTrue(command.ext("i").contains("订单-1"), command.ext("i"));
        assertTrue(command.ext("i").endsWith("q\u0001\"quoted\\\"\t/"), command.ext("i"));
    }

    /** What the fast path takes on, and what it hands over; either way the result is the general decoder's. */
    @ParameterizedTest
    @ValueSource(strings = {
        SEND_HEADER,
        "{}",
        " {\n\t\"code\" : 11 ,\r\n \"extFields\" : { \"a\" : \"1\" , \"b\":null } } \n",
        "{\"code\":1,\"remark\":\"line\\nbreak \\\"q\\\" \\\\ \\/ \\b\\f\\r\\t \\u00e9\\u4e2d\\ud83d\\ude00\"}",
        "{\"code\":1,\"extFields\":{\"\":\"empty key\",\"v\":\"\"}}",
        "{\"code\":1,\"extFields\":{\"lone\":\"\\ud800 \\uDFFF\"}}",
        "{\"code\":2147483647,\"opaque\":-2147483648,\"flag\":3,\"version\":-0}",
        "{\"code\":1,\"unknown\":\"x\",\"n\":12,\"t\":true,\"f\":false,\"z\":null,\"serializeTypeCurrentRPC\":1}",
        "{\"code\":1,\"code\":2,\"extFields\":{\"a\":\"1\"},\"extFields\":{\"b\":\"2\"}}",
        "{\"code\":1,\"language\":\"CPP\",\"remark\":null,\"extFields\":null}",
        "{\"code\":1,\"language\":\"NODE_JS\"}",
        // from here the general decoder decides
        "{\"code\":\"310\"}",
        "{\"code\":1.5}",
        "{\"code\":1e2}",
        "{\"code\":true}",
        "{\"code\":null}",
        "{\"code\":007}",
        "{\"code\":2147483648}",
        "{\"code\":-2147483649}",
        "{\"code\":99999999999}",
        "{\"code\":1,\"language\":9}",
        "{\"code\":1,\"language\":\"COBOL\"}",
        "{\"code\":1,\"remark\":\"h\u00e9llo \u4e2d\"}",
        "{\"code\":1,\"remark\":5}",
        "{\"code\":1,\"extFields\":{\"queueId\":3,\"offset\":12345678901,\"ratio\":0.5,\"unit\":false}}",
        "{\"code\":1,\"extFields\":{\"a\":\"1\",\"a\":\"2\"}}",
        "{\"code\":1,\"extFields\":{\"k\\u0065y\":\"escaped key\"}}",
        "{\"code\":1,\"extFields\":{\"\u4e2d\":\"non-ASCII key\"}}",
        "{\"code\":1,\"extFields\":{\"a\":{\"b\":1}}}",
        "{\"code\":1,\"extFields\":{\"a\":[1]}}",
        "{\"code\":1,\"extFields\":\"text\"}",
        "{\"code\":{\"opaque\":9}}",
        "{\"remark\":{\"opaque\":9},\"opaque\":7}",
        "{\"future\":{\"nested\":[1,{\"x\":2}]},\"code\":34,\"list\":[\"a\"]}",
        "{\"code\":1}trailing",
        "{\"code\":1}{\"code\":2}",
        "{\"code\":1,\"remark\":\"bad \\x escape\"}",
        "{\"code\":1,\"remark\":\"short \\u12\"}",
        "{\"code\":1,\"remark\":\"raw\ttab\"}",
        "{\"code\":1,}",
        "{,\"code\":1}",
        "{\"code\":1 \"flag\":2}",
        "{\"code\" 1}",
        "{'code':1}",
        "{code:1}",
        "{\"code\":1",
        "{\"code\":",
        "{\"code",
        "{",
        "",
        "   ",
        "[1,2]",
        "\"text\"",
        "null",
        "not json"})
    void theCodecAnswersAsTheGeneralDecoderDoes(String header) {
        assertSameOutcome(frameOf(header.getBytes(StandardCharsets.UTF_8)));
    }

    /** Ill-formed UTF-8 is the general decoder's to judge; well-formed, of any length, is read in place. */
    @Test
    void utf8IsReadInPlaceOnlyWhenWellFormed() {
        int[][] wellFormed = {{0xC3, 0xA9}, {0xE4, 0xB8, 0xAD}, {0xEF, 0xBF, 0xBF}, {0xF0, 0x9F, 0x98, 0x80},
            {0xF4, 0x8F, 0xBF, 0xBF}, {0xC2, 0x80}, {0xE0, 0xA0, 0x80}, {0xED, 0x9F, 0xBF}};
        int[][] illFormed = {{0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xED, 0xA0, 0x80},
            {0xF0, 0x80, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xFF}, {0x80}, {0xBF},
            {0xE4, 0xB8}, {0xE4, 0x41, 0x41},
            {0xF0, 0x9F, 0x98}};
        for (int[] sequence : wellFormed) {
            for (Buffer frame : framesAround(sequence)) {
                assertNotNull(scan(frame), frame.toString(StandardCharsets.ISO_8859_1));
                assertSameOutcome(frame);
            }
        }
        for (int[] sequence : illFormed) {
            for (Buffer frame : framesAround(sequence)) {
                assertNull(scan(frame), frame.toString(StandardCharsets.ISO_8859_1));
                assertSameOutcome(frame);
            }
        }
    }

    /** The sequence in a value alone, between escapes, in a remark, and as (fallback) a key. */
    private static List<Buffer> framesAround(int[] sequence) {
        byte[] bytes = new byte[sequence.length];
        for (int index = 0; index < sequence.length; index++) {
            bytes[index] = (byte) sequence[index];
        }
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        List<Buffer> frames = new ArrayList<>();
        for (String header : List.of("{\"code\":1,\"extFields\":{\"v\":\"" + text + "\"}}",
            "{\"code\":1,\"extFields\":{\"v\":\"a\\u0001" + text + "\\u0002" + text + text + "z\"}}",
            "{\"code\":1,\"remark\":\"" + text + "\\n" + text + "\"}")) {
            frames.add(frameOf(header.getBytes(StandardCharsets.ISO_8859_1)));
        }
        return frames;
    }

    @Test
    void aNonAsciiKeyIsLeftToTheGeneralDecoder() {
        Buffer frame = frameOf("{\"code\":1,\"extFields\":{\"中\":\"v\"}}".getBytes(StandardCharsets.UTF_8));

        assertNull(scan(frame));
        assertEquals("v", CommandCodec.decode(frame, MAX_HEADER_BYTES).ext("中"));
    }

    @Test
    void theFastPathReadsTheUsualShapesItself() {
        for (String header : List.of(SEND_HEADER, "{}", "{\"code\":1,\"remark\":\"a\\\"b\",\"extFields\":{}}",
            " { \"code\" : 1 } ", "{\"code\":1,\"extFields\":{\"\":\"\",\"x\":null}}")) {
            assertNotNull(scan(frameOf(header.getBytes(StandardCharsets.UTF_8))), header);
        }
    }

    @Test
    void everyTruncationOfARealHeaderIsMalformedAsTheGeneralDecoderSaysOrDecodesAsItDoes() throws IOException {
        byte[] header = officialHeader("rocketmq-5.5.0-send-v2");
        for (int length = 0; length < header.length; length++) {
            byte[] cut = java.util.Arrays.copyOf(header, length);
            assertSameOutcome(frameOf(cut));
        }
    }

    /** Random damage (a byte changed, dropped, doubled or inserted) to real headers: same outcome every time. */
    @Test
    void damagedHeadersGetTheGeneralDecodersAnswer() throws IOException {
        Random random = new Random(15);
        byte[] interesting = "{}[]\":,\\u0aZ-9 .e\u0001".getBytes(StandardCharsets.ISO_8859_1);
        List<byte[]> originals = new ArrayList<>();
        for (String name : OFFICIAL_FRAMES) {
            originals.add(officialHeader(name));
        }
        originals.add(SEND_HEADER.getBytes(StandardCharsets.UTF_8));
        for (int round = 0; round < 20_000; round++) {
            byte[] header = originals.get(random.nextInt(originals.size()));
            int at = random.nextInt(header.length);
            byte replacement = random.nextBoolean() ? interesting[random.nextInt(interesting.length)]
                : (byte) random.nextInt(256);
            byte[] damaged = switch (random.nextInt(4)) {
                case 0 -> replaced(header, at, replacement);
                case 1 -> removed(header, at);
                case 2 -> inserted(header, at, header[at]);
                default -> inserted(header, at, replacement);
            };
            assertSameOutcome(frameOf(damaged));
        }
    }

    @Test
    void aFrameSlicedFromALargerBufferIsReadAtItsOwnOffset() {
        byte[] header = SEND_HEADER.getBytes(StandardCharsets.UTF_8);
        Buffer wide = Buffer.buffer("garbage-before").appendBuffer(frameOf(header)).appendString("after");
        Buffer frame = wide.slice("garbage-before".length(), wide.length() - "after".length());

        RemotingCommand command = CommandCodec.decode(frame, MAX_HEADER_BYTES);

        assertInstanceOf(JsonHeaderFieldTable.class, command.extFields());
        assertSameCommand(general(frame), command);
    }

    @Test
    void aFrameInADirectBufferIsReadFromACopy() {
        byte[] whole = frameOf(SEND_HEADER.getBytes(StandardCharsets.UTF_8)).getBytes();
        Buffer frame = BufferInternal.buffer(Unpooled.directBuffer(whole.length).writeBytes(whole));

        RemotingCommand command = CommandCodec.decode(frame, MAX_HEADER_BYTES);

        assertInstanceOf(JsonHeaderFieldTable.class, command.extFields());
        assertSameCommand(general(frame), command);
    }

    @Test
    void moreFieldsThanTheTableFirstHoldsAreAllKept() {
        StringBuilder header = new StringBuilder("{\"code\":11,\"extFields\":{");
        Map<String, String> expected = new HashMap<>();
        for (int index = 0; index < 100; index++) {
            header.append(index == 0 ? "" : ",").append("\"key").append(index).append("\":\"").append(index)
                .append('"');
            expected.put("key" + index, String.valueOf(index));
        }
        Buffer frame = frameOf(header.append("}}").toString().getBytes(StandardCharsets.UTF_8));

        assertNotNull(scan(frame));
        assertEquals(expected, CommandCodec.decode(frame, MAX_HEADER_BYTES).extFields());
        assertEquals(99, CommandCodec.decode(frame, MAX_HEADER_BYTES).header().requiredInt("key99"));
    }

    @Test
    void theFieldTableBehavesAsAnUnmodifiableMap() {
        RemotingCommand command = CommandCodec.decode(frameOf(SEND_HEADER.getBytes(StandardCharsets.UTF_8)),
            MAX_HEADER_BYTES);
        Map<String, String> table = command.extFields();
        Map<String, String> copy = new HashMap<>(table);

        assertEquals(12, table.size());
        assertEquals(copy, table);
        assertEquals(table, copy);
        assertEquals(copy.hashCode(), table.hashCode());
        assertTrue(table.containsKey("m"));
        assertNull(table.get("l"));
        assertNull(table.get("aa"));
        assertEquals("KEYS\u0001k1\u0002WAIT\u0001true", table.get("i"));
        assertThrows(UnsupportedOperationException.class, () -> table.put("x", "y"));
        assertThrows(UnsupportedOperationException.class, () -> table.remove("a"));
        assertThrows(UnsupportedOperationException.class, () -> table.entrySet().iterator().next().setValue("z"));
        assertEquals(copy, command.extFieldsCopy());
    }

    /** The eight-bytes-at-a-time skip never misses a byte that ends a plain run, at any place in the word. */
    @Test
    void theWordTestFlagsEveryQuoteBackslashControlAndNonAsciiByte() {
        Random random = new Random(15);
        for (int value = 0; value < 256; value++) {
            boolean isSpecial = value == '"' || value == '\\' || value < 0x20 || value >= 0x80;
            for (int place = 0; place < Long.BYTES; place++) {
                for (int round = 0; round < 20; round++) {
                    long word = 0;
                    for (int at = 0; at < Long.BYTES; at++) {
                        long plain = plainByte(random);
                        word |= (at == place ? value : plain) << (8 * at);
                    }
                    assertEquals(isSpecial, JsonHeaderScanner.isSpecialInWord(word),
                        "byte " + value + " at " + place + " of " + Long.toHexString(word));
                }
            }
        }
        for (int round = 0; round < 200_000; round++) {
            long word = random.nextLong();
            boolean hasSpecial = false;
            for (int at = 0; at < Long.BYTES; at++) {
                int value = (int) (word >>> (8 * at)) & 0xFF;
                hasSpecial |= value == '"' || value == '\\' || value < 0x20 || value >= 0x80;
            }
            assertEquals(hasSpecial, JsonHeaderScanner.isSpecialInWord(word), Long.toHexString(word));
        }
    }

    /** Random headers (one-char and longer keys, any text, escapes at any offset) read as the general decoder does. */
    @Test
    void randomHeadersAreReadInPlaceAsTheGeneralDecoderReadsThem() {
        Random random = new Random(310);
        String[] pieces = {"\\u0001", "\\u0002", "\\\"", "\\\\", "\\n", "\\u00e9", "\\u4e2d", "\u00e9",
            "\u4e2d", "\ud83d\ude00", "/", " "};
        int readInPlace = 0;
        for (int round = 0; round < 3_000; round++) {
            StringBuilder header = new StringBuilder("{\"code\":310,\"extFields\":{");
            int fieldCount = random.nextInt(40);
            List<String> keys = new ArrayList<>();
            for (int index = 0; index < fieldCount; index++) {
                String key = random.nextInt(3) == 0 ? "key" + random.nextInt(50)
                    : String.valueOf((char) (0x20 + random.nextInt(0x5F)));
                if (key.equals("\"") || key.equals("\\")) {
                    key = "q";
                }
                keys.add(key);
                header.append(index == 0 ? "" : ",").append('"').append(key).append("\":\"");
                int length = random.nextInt(60);
                for (int at = 0; at < length; at++) {
                    if (random.nextInt(6) == 0) {
                        header.append(pieces[random.nextInt(pieces.length)]);
                    } else {
                        header.append((char) plainByte(random));
                    }
                }
                header.append('"');
            }
            header.append("},\"flag\":0,\"language\":\"JAVA\",\"opaque\":").append(round)
                .append(",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":513}");
            Buffer frame = frameOf(header.toString().getBytes(StandardCharsets.UTF_8));

            assertSameOutcome(frame);
            readInPlace += scan(frame) != null ? 1 : 0;
            RemotingCommand expected = general(frame);
            RemotingCommand decoded = CommandCodec.decode(frame, MAX_HEADER_BYTES);
            for (String key : keys) {
                assertEquals(expected.ext(key), decoded.ext(key), key);
            }
            for (char absent = 0x20; absent < 0x80; absent++) {
                String key = String.valueOf(absent);
                assertEquals(expected.ext(key), decoded.ext(key), key);
                assertEquals(expected.extFields().containsKey(key), decoded.extFields().containsKey(key), key);
            }
        }
        assertTrue(readInPlace > 1_000, readInPlace + " of 3,000 read in place (the rest had a repeated key)");
    }

    /** A one-char key after more fields than the one-char index counts is still found; a repeated one still refused. */
    @Test
    void oneCharKeysAfterManyFieldsAreFoundAndTheirDuplicatesLeftToTheGeneralDecoder() {
        for (boolean isRepeated : new boolean[] {false, true}) {
            StringBuilder header = new StringBuilder("{\"code\":11,\"extFields\":{");
            for (int index = 0; index < 130; index++) {
                header.append("\"key").append(index).append("\":\"").append(index).append("\",");
            }
            header.append("\"a\":\"first\",\"b\":\"2\"").append(isRepeated ? ",\"a\":\"again\"" : "")
                .append("}}");
            Buffer frame = frameOf(header.toString().getBytes(StandardCharsets.UTF_8));

            if (isRepeated) {
                assertNull(scan(frame));
                assertSameOutcome(frame);
            } else {
                assertNotNull(scan(frame));
                RemotingCommand decoded = CommandCodec.decode(frame, MAX_HEADER_BYTES);
                assertEquals("first", decoded.ext("a"));
                assertEquals(2, decoded.header().requiredInt("b"));
                assertEquals("129", decoded.ext("key129"));
                assertNull(decoded.ext("c"));
                assertEquals(132, decoded.extFields().size());
            }
        }
        Buffer repeatedOneChar = frameOf("{\"code\":310,\"extFields\":{\"a\":\"x\",\"b\":\"y\",\"a\":\"z\"}}"
            .getBytes(StandardCharsets.UTF_8));
        assertNull(scan(repeatedOneChar));
        assertSameOutcome(repeatedOneChar);
    }

    /** Escaped values shorter and longer than the unescaping scratch array, one after the other on one thread. */
    @Test
    void escapedValuesOfAnyLengthAreUnescapedWhole() {
        for (int length : new int[] {1, 100, 4 * 1024 - 1, 4 * 1024, 4 * 1024 + 1, 10_000, 3}) {
            StringBuilder escaped = new StringBuilder();
            StringBuilder text = new StringBuilder();
            for (int index = 0; escaped.length() < length; index++) {
                boolean isSeparator = index % 7 == 6;
                escaped.append(isSeparator ? "\\u0002" : String.valueOf((char) ('a' + index % 26)));
                text.append(isSeparator ? '\u0002' : (char) ('a' + index % 26));
            }
            Buffer frame = frameOf(("{\"code\":310,\"extFields\":{\"i\":\"" + escaped + "\",\"b\":\"x\\u0001\"}}")
                .getBytes(StandardCharsets.UTF_8));

            RemotingCommand decoded = CommandCodec.decode(frame, Integer.MAX_VALUE);
            assertNotNull(scan(frame));
            assertEquals(text.toString(), decoded.ext("i"));
            assertEquals("x\u0001", decoded.ext("b"));
        }
    }

    /** A printable ASCII byte that needs no escape in a JSON string. */
    private static int plainByte(Random random) {
        int value;
        do {
            value = 0x20 + random.nextInt(0x5F);
        } while (value == '"' || value == '\\');
        return value;
    }

    /** Numbers and flags read from the bytes give what the text path gives, its errors included. */
    @Test
    void numbersAndFlagsReadInPlaceMatchTheTextPath() {
        String[] values = {"0", "7", "-7", "007", "-0", "+5", " 5 ", "", "2147483647", "2147483648", "-2147483648",
            "-2147483649", "9223372036854775807", "99999999999999999999", "1.5", "abc", "-", "1\\u0030"};
        for (String value : values) {
            String header = "{\"code\":310,\"extFields\":{\"n\":\"" + value + "\"}}";
            HeaderFields inPlace = CommandCodec.decode(frameOf(header.getBytes(StandardCharsets.UTF_8)),
                MAX_HEADER_BYTES).header();
            HeaderFields text = new HeaderFields(310, new HashMap<>(Map.of("n", value.replace("\\u0030", "0"))));
            assertSameAnswer(() -> text.requiredInt("n"), () -> inPlace.requiredInt("n"), value);
            assertSameAnswer(() -> text.optionalInt("n", -99), () -> inPlace.optionalInt("n", -99), value);
            assertSameAnswer(() -> text.requiredLong("n"), () -> inPlace.requiredLong("n"), value);
            assertSameAnswer(() -> text.optionalLong("n", -99), () -> inPlace.optionalLong("n", -99), value);
        }
        for (String value : new String[] {"true", "false", "TRUE", " true ", "", "yes", "fals", "tru\\u0065"}) {
            String header = "{\"code\":310,\"extFields\":{\"m\":\"" + value + "\"}}";
            HeaderFields inPlace = CommandCodec.decode(frameOf(header.getBytes(StandardCharsets.UTF_8)),
                MAX_HEADER_BYTES).header();
            HeaderFields text = new HeaderFields(310, new HashMap<>(Map.of("m", value.replace("\\u0065", "e"))));
            assertSameAnswer(() -> text.optionalBoolean("m", true), () -> inPlace.optionalBoolean("m", true), value);
            assertSameAnswer(() -> text.optionalBoolean("m", false), () -> inPlace.optionalBoolean("m", false), value);
        }
        HeaderFields none = CommandCodec.decode(frameOf("{\"code\":310}".getBytes(StandardCharsets.UTF_8)),
            MAX_HEADER_BYTES).header();
        assertEquals(-1, none.optionalInt("l", -1));
        RemotingCommandException missing = assertThrows(RemotingCommandException.class, () -> none.requiredInt("d"));
        assertTrue(missing.getMessage().contains("field d is null"), missing.getMessage());
    }

    private static void assertSameAnswer(java.util.concurrent.Callable<Object> expected,
                                         java.util.concurrent.Callable<Object> actual, String value) {
        Object expectedAnswer = answerOf(expected);
        Object actualAnswer = answerOf(actual);
        assertEquals(expectedAnswer, actualAnswer, "value \"" + value + "\"");
    }

    private static Object answerOf(java.util.concurrent.Callable<Object> call) {
        try {
            return call.call();
        } catch (Exception e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static void assertSameOutcome(Buffer frame) {
        String label = frame.getString(Frame.HEADER_OFFSET_IN_FRAME, frame.length(), "ISO-8859-1");
        RemotingCommand expected;
        try {
            expected = general(frame);
        } catch (RuntimeException generalError) {
            RuntimeException error = assertThrows(RuntimeException.class,
                () -> CommandCodec.decode(frame, MAX_HEADER_BYTES), label);
            assertEquals(generalError.getClass(), error.getClass(), label);
            assertEquals(generalError.getMessage(), error.getMessage(), label);
            return;
        }
        RemotingCommand actual;
        try {
            actual = CommandCodec.decode(frame, MAX_HEADER_BYTES);
        } catch (RuntimeException e) {
            fail("the general decoder reads " + label + " but the codec says " + e);
            return;
        }
        assertSameCommand(expected, actual);
    }

    private static RemotingCommand scan(Buffer frame) {
        int headerLength = Frame.headerLength(frame.getInt(0));
        return JsonHeaderScanner.decodeOrNull(frame, Frame.HEADER_OFFSET_IN_FRAME, headerLength, bodyOf(frame));
    }

    private static RemotingCommand general(Buffer frame) {
        int headerLength = Frame.headerLength(frame.getInt(0));
        return JsonHeaderCodec.decodeGeneral(frame, Frame.HEADER_OFFSET_IN_FRAME, headerLength, bodyOf(frame));
    }

    private static Buffer bodyOf(Buffer frame) {
        int bodyStart = Frame.HEADER_OFFSET_IN_FRAME + Frame.headerLength(frame.getInt(0));
        return bodyStart < frame.length() ? frame.slice(bodyStart, frame.length()) : null;
    }

    private static Buffer frameOf(byte[] header) {
        return frameAfterLength(SerializeType.JSON.code(), header, new byte[] {1, 2, 3});
    }

    /** A captured frame without its length field: what the frame reader hands the codec. */
    private static Buffer officialFrame(String name) throws IOException {
        try (InputStream in = JsonHeaderScannerTest.class.getResourceAsStream("/official-frames/" + name + ".frame")) {
            assertNotNull(in, name);
            Buffer whole = Buffer.buffer(in.readAllBytes());
            return CommandAssertions.afterLengthField(whole).copy();
        }
    }

    private static byte[] officialHeader(String name) throws IOException {
        Buffer frame = officialFrame(name);
        int headerLength = Frame.headerLength(frame.getInt(0));
        return frame.getBytes(Frame.HEADER_OFFSET_IN_FRAME, Frame.HEADER_OFFSET_IN_FRAME + headerLength);
    }

    private static byte[] replaced(byte[] bytes, int at, byte value) {
        byte[] copy = bytes.clone();
        copy[at] = value;
        return copy;
    }

    private static byte[] removed(byte[] bytes, int at) {
        byte[] copy = new byte[bytes.length - 1];
        System.arraycopy(bytes, 0, copy, 0, at);
        System.arraycopy(bytes, at + 1, copy, at, bytes.length - at - 1);
        return copy;
    }

    private static byte[] inserted(byte[] bytes, int at, byte value) {
        byte[] copy = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, copy, 0, at);
        copy[at] = value;
        System.arraycopy(bytes, at, copy, at + 1, bytes.length - at);
        return copy;
    }
}
