package io.vrmq.remoting.protocol;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Writes a JSON header straight into the frame's buffer, byte by byte: the official encoder's shape (keys in
 * alphabetical order, null fields left out, every extFields value a string), strings as UTF-8 with JSON's escapes
 * (a quote and a backslash escaped, the short forms of control characters, a hex escape for the other ones below
 * 0x20 and for each half of a surrogate pair, as Jackson writes them).
 * Written by hand rather than with a Jackson generator because every answer the broker sends is one of these: a
 * generator, its context and its write state per header were some 6 % of the broker's allocation at 2,000 msgs/s
 * (benchmark/RESULTS.md, "Allocation and young pauses"). Stateless: any thread.
 */
final class JsonHeaderWriter {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** Four ints at their widest, a language name at its longest, every fixed name and punctuation mark. */
    private static final int FIXED_TEXT_BYTES = 4 * 11 + longestLanguageName()
        + "{'code':,'extFields':{},'flag':,'language':'','opaque':,'serializeTypeCurrentRPC':'JSON','version':}"
            .length();
    private static final int REMARK_FIELD_BYTES = ",'remark':''".length();
    /** {@code "key":"value",} */
    private static final int FIELD_PUNCTUATION_BYTES = 6;

    private JsonHeaderWriter() {
    }

    /**
     * What the header takes when its text is ASCII without escapes (every answer the broker writes on the hot path),
     * never less: the fixed names and punctuation, each number at its widest, the language at its longest name,
     * each field's key and value. A header that writes more (escapes, non-ASCII) only grows its buffer.
     */
    static int estimatedBytes(RemotingCommand command) {
        int bytes = FIXED_TEXT_BYTES;
        if (command.remark() != null) {
            bytes += REMARK_FIELD_BYTES + command.remark().length();
        }
        for (Map.Entry<String, String> field : command.extFields().entrySet()) {
            String value = field.getValue();
            bytes += FIELD_PUNCTUATION_BYTES + field.getKey().length() + (value == null ? 0 : value.length());
        }
        return bytes;
    }

    static void write(RemotingCommand command, Buffer out) {
        out.appendByte((byte) '{');
        name(out, "code", false);
        number(out, command.code());
        Map<String, String> extFields = command.extFields();
        if (!extFields.isEmpty()) {
            name(out, "extFields", true);
            out.appendByte((byte) '{');
            writeSorted(out, extFields);
            out.appendByte((byte) '}');
        }
        name(out, "flag", true);
        number(out, command.flag());
        name(out, "language", true);
        string(out, command.language().name());
        name(out, "opaque", true);
        number(out, command.opaque());
        if (command.remark() != null) {
            name(out, "remark", true);
            string(out, command.remark());
        }
        name(out, "serializeTypeCurrentRPC", true);
        string(out, SerializeType.JSON.name());
        name(out, "version", true);
        number(out, command.version());
        out.appendByte((byte) '}');
    }

    /** The official encoder's key order (alphabetical), without a sorted copy of the map. */
    private static void writeSorted(Buffer out, Map<String, String> fields) {
        String[] names = fields.keySet().toArray(new String[0]);
        Arrays.sort(names);
        boolean isFirst = true;
        for (String name : names) {
            String value = fields.get(name);
            if (value != null) {
                name(out, name, !isFirst);
                string(out, value);
                isFirst = false;
            }
        }
    }

    private static void name(Buffer out, String name, boolean isAfterAField) {
        if (isAfterAField) {
            out.appendByte((byte) ',');
        }
        string(out, name);
        out.appendByte((byte) ':');
    }

    static void number(Buffer out, int value) {
        long rest = value;
        if (rest < 0) {
            out.appendByte((byte) '-');
            rest = -rest;
        }
        long unit = 1;
        while (unit * 10 <= rest) {
            unit *= 10;
        }
        for (; unit > 0; unit /= 10) {
            out.appendByte((byte) ('0' + rest / unit % 10));
        }
    }

    static void string(Buffer out, String text) {
        out.appendByte((byte) '"');
        int length = text.length();
        for (int index = 0; index < length; index++) {
            char c = text.charAt(index);
            if (c < 0x80) {
                ascii(out, c);
            } else if (c < 0x800) {
                out.appendByte((byte) (0xC0 | c >> 6));
                out.appendByte((byte) (0x80 | c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                hexEscaped(out, c);   // as Jackson writes them: each UTF-16 half escaped, paired or not
            } else {
                out.appendByte((byte) (0xE0 | c >> 12));
                out.appendByte((byte) (0x80 | c >> 6 & 0x3F));
                out.appendByte((byte) (0x80 | c & 0x3F));
            }
        }
        out.appendByte((byte) '"');
    }

    private static void ascii(Buffer out, char c) {
        switch (c) {
            case '"' -> escaped(out, '"');
            case '\\' -> escaped(out, '\\');
            case '\n' -> escaped(out, 'n');
            case '\r' -> escaped(out, 'r');
            case '\t' -> escaped(out, 't');
            case '\b' -> escaped(out, 'b');
            case '\f' -> escaped(out, 'f');
            default -> {
                if (c < 0x20) {
                    hexEscaped(out, c);
                } else {
                    out.appendByte((byte) c);
                }
            }
        }
    }

    private static void hexEscaped(Buffer out, char c) {
        out.appendByte((byte) '\\').appendByte((byte) 'u').appendByte(HEX[c >> 12]).appendByte(HEX[c >> 8 & 0xF])
            .appendByte(HEX[c >> 4 & 0xF]).appendByte(HEX[c & 0xF]);
    }

    private static int longestLanguageName() {
        int longest = 0;
        for (LanguageCode language : LanguageCode.values()) {
            longest = Math.max(longest, language.name().length());
        }
        return longest;
    }

    private static void escaped(Buffer out, char c) {
        out.appendByte((byte) '\\').appendByte((byte) c);
    }
}
