package io.vrmq.remoting.protocol;

import io.netty.util.concurrent.FastThreadLocal;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Writes a JSON header byte by byte (into a per-thread scratch array, then copied once): the official encoder's shape (keys in
 * alphabetical order, null fields left out, every extFields value a string), strings as UTF-8 with JSON's escapes
 * (a quote and a backslash escaped, the short forms of control characters, a hex escape for the other ones below
 * 0x20 and for each half of a surrogate pair, as Jackson writes them).
 * Written by hand rather than with a Jackson generator because every answer the broker sends is one of these: a
 * generator, its context and its write state per header were some 6 % of the broker's allocation at 2,000 msgs/s
 * (benchmark/RESULTS.md, "Allocation and young pauses"). Any thread: its only state is each thread's own
 * scratch array.
 */
final class JsonHeaderWriter {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** A scratch array starts at this: a send answer's head is ~230 bytes, a pull answer's ~200. */
    private static final int SCRATCH_INITIAL_BYTES = 512;
    /** A scratch array grown above this (a huge remark or ext field) is dropped after its header, not kept. */
    static final int SCRATCH_KEPT_MAX_BYTES = 64 * 1024;
    /** The worst a char takes: a hex escape, backslash, u and four hex digits. */
    private static final int MAX_BYTES_PER_CHAR = 6;
    private static final FastThreadLocal<Scratch> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected Scratch initialValue() {
            return new Scratch();
        }
    };

    // The fixed text between the header's values, as string() writes it (the names are plain ASCII), written with
    // one copy each instead of char by char: about half of a send answer's header.
    private static final byte[] CODE_START = fixedText("{", "code", false);
    private static final byte[] EXT_FIELDS_START = fixedText("", "extFields", true, "{");
    private static final byte[] FLAG = fixedText("", "flag", true);
    /** {@code ,"language":"JAVA","opaque":} by language, its ordinal. */
    private static final byte[][] LANGUAGES = languages();
    private static final byte[] REMARK = fixedText("", "remark", true);
    private static final byte[] SERIALIZE_TYPE_AND_VERSION = ascii(",\"serializeTypeCurrentRPC\":\""
        + SerializeType.JSON.name() + "\",\"version\":");

    private JsonHeaderWriter() {
    }

    private static byte[] fixedText(String before, String name, boolean isAfterAField, String... after) {
        return ascii(before + (isAfterAField ? "," : "") + '"' + name + "\":" + String.join("", after));
    }

    private static byte[][] languages() {
        LanguageCode[] languages = LanguageCode.values();
        byte[][] texts = new byte[languages.length][];
        for (LanguageCode language : languages) {
            texts[language.ordinal()] = ascii(",\"language\":\"" + language.name() + "\",\"opaque\":");
        }
        return texts;
    }

    private static byte[] ascii(String text) {
        for (int index = 0; index < text.length(); index++) {
            char c = text.charAt(index);
            if (c < 0x20 || c >= 0x80 || c == '\\') {
                throw new IllegalStateException("fixed header text must be plain ASCII: " + text);
            }
        }
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * One thread's header bytes while they are written: one store per ASCII char into a plain array, then one copy
     * into a buffer of the exact size (no size estimate, no buffer growth; benchmark/RESULTS.md, session 10
     * "sendcpu"). Valid until the thread's next {@link #encode}.
     */
    static final class Scratch {
        byte[] bytes = new byte[SCRATCH_INITIAL_BYTES];
        int length;

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }

        private void put(byte b) {
            ensure(1);
            bytes[length++] = b;
        }

        private void raw(byte[] text) {
            ensure(text.length);
            System.arraycopy(text, 0, bytes, length, text.length);
            length += text.length;
        }
    }

    /** The header in this thread's scratch array; the caller copies it out before the thread encodes another. */
    static Scratch encode(RemotingCommand command) {
        Scratch out = SCRATCH.get();
        if (out.bytes.length > SCRATCH_KEPT_MAX_BYTES) {
            out.bytes = new byte[SCRATCH_INITIAL_BYTES];
        }
        out.length = 0;
        write(command, out);
        return out;
    }

    /** Appends the header to {@code out}. */
    static void write(RemotingCommand command, Buffer out) {
        Scratch scratch = encode(command);
        out.appendBytes(scratch.bytes, 0, scratch.length);
    }

    private static void write(RemotingCommand command, Scratch out) {
        out.raw(CODE_START);
        number(out, command.code());
        Map<String, String> extFields = command.extFields();
        if (!extFields.isEmpty()) {
            out.raw(EXT_FIELDS_START);
            if (!writeIfInOrder(out, extFields)) {
                writeSorted(out, extFields);
            }
            out.put((byte) '}');
        }
        out.raw(FLAG);
        number(out, command.flag());
        out.raw(LANGUAGES[command.language().ordinal()]);
        number(out, command.opaque());
        if (command.remark() != null) {
            out.raw(REMARK);
            string(out, command.remark());
        }
        out.raw(SERIALIZE_TYPE_AND_VERSION);
        number(out, command.version());
        out.put((byte) '}');
    }

    /**
     * A map that already iterates in the official encoder's key order (alphabetical: a send answer's, built so) is
     * written as it iterates, without a sorted copy of its keys. False, with {@code out} as it was, at the first key
     * out of order: the caller sorts.
     */
    private static boolean writeIfInOrder(Scratch out, Map<String, String> fields) {
        int mark = out.length;
        String previous = null;
        boolean isFirst = true;
        for (Map.Entry<String, String> field : fields.entrySet()) {
            String name = field.getKey();
            if (previous != null && previous.compareTo(name) >= 0) {
                out.length = mark;
                return false;
            }
            previous = name;
            String value = field.getValue();
            if (value != null) {
                name(out, name, !isFirst);
                string(out, value);
                isFirst = false;
            }
        }
        return true;
    }

    /** The official encoder's key order (alphabetical), without a sorted copy of the map. */
    private static void writeSorted(Scratch out, Map<String, String> fields) {
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

    private static void name(Scratch out, String name, boolean isAfterAField) {
        if (isAfterAField) {
            out.put((byte) ',');
        }
        string(out, name);
        out.put((byte) ':');
    }

    static void number(Scratch out, int value) {
        out.ensure(11);
        byte[] bytes = out.bytes;
        int at = out.length;
        long rest = value;
        if (rest < 0) {
            bytes[at++] = '-';
            rest = -rest;
        }
        long unit = 1;
        while (unit * 10 <= rest) {
            unit *= 10;
        }
        for (; unit > 0; unit /= 10) {
            bytes[at++] = (byte) ('0' + rest / unit % 10);
        }
        out.length = at;
    }

    static void string(Scratch out, String text) {
        int length = text.length();
        out.ensure(2 + length * MAX_BYTES_PER_CHAR);
        byte[] bytes = out.bytes;
        int at = out.length;
        bytes[at++] = '"';
        for (int index = 0; index < length; index++) {
            char c = text.charAt(index);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    bytes[at++] = (byte) c;
                } else {
                    at = escaped(bytes, at, c);
                }
            } else if (c < 0x800) {
                bytes[at++] = (byte) (0xC0 | c >> 6);
                bytes[at++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isSurrogate(c)) {
                at = hexEscaped(bytes, at, c);   // as Jackson writes them: each UTF-16 half escaped, paired or not
            } else {
                bytes[at++] = (byte) (0xE0 | c >> 12);
                bytes[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                bytes[at++] = (byte) (0x80 | c & 0x3F);
            }
        }
        bytes[at++] = '"';
        out.length = at;
    }

    /** A quote, a backslash or a control character, as Jackson escapes it. */
    private static int escaped(byte[] bytes, int at, char c) {
        byte shortForm = switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            case '\b' -> 'b';
            case '\f' -> 'f';
            default -> 0;
        };
        if (shortForm == 0) {
            return hexEscaped(bytes, at, c);
        }
        bytes[at] = '\\';
        bytes[at + 1] = shortForm;
        return at + 2;
    }

    private static int hexEscaped(byte[] bytes, int at, char c) {
        bytes[at] = '\\';
        bytes[at + 1] = 'u';
        bytes[at + 2] = HEX[c >> 12];
        bytes[at + 3] = HEX[c >> 8 & 0xF];
        bytes[at + 4] = HEX[c >> 4 & 0xF];
        bytes[at + 5] = HEX[c & 0xF];
        return at + 6;
    }
}
