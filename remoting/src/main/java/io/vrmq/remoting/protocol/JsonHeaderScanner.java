package io.vrmq.remoting.protocol;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The JSON header read in place from the frame's bytes, for the shape the official clients write (fastjson in 4.x,
 * fastjson2 in 5.x): one object of {@code code, extFields, flag, language, opaque, remark, serializeTypeCurrentRPC,
 * version}, in any order, numbers as plain integers, extFields a flat object of ASCII strings (the properties
 * field's \u0001 and \u0002 separators escaped, other text as UTF-8). extFields become a
 * {@link JsonHeaderFieldTable}, not a map of strings.
 *
 * <p>A fast path only: whatever it is not sure of (ill-formed UTF-8, escaped or non-ASCII keys, numbers that are not
 * plain ints, values that are not strings, nested or unknown structures, duplicate keys, bytes after the object,
 * anything malformed) makes {@link #decodeOrNull} answer {@code null}, and the caller runs the general decoder,
 * which decides what the header means or why it is malformed. So no answer, and no error, depends on this class.
 * Not thread-safe: one instance reads one header, on the thread that decodes the frame.
 */
final class JsonHeaderScanner {
    /** More digits may not fit an int; the general decoder reports such a number. */
    private static final int MAX_INT_DIGITS = 10;
    private static final LanguageCode[] LANGUAGES = LanguageCode.values();
    /** The frame's bytes read eight at a time by {@link #string}'s plain-run skip (byte order irrelevant). */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long CONTROL_LIMITS = ONES * 0x20;
    /** The hex digits 0-9, a-f, A-F, by byte value. */
    private static final boolean[] HEX_DIGITS = hexDigits();

    private final byte[] bytes;
    private final int end;
    private int position;
    /** Set by a number that is not a plain int: the header goes to the general decoder. */
    private boolean failed;
    /** Where the last {@link #plainKey} ended (its closing quote). */
    private int keyEnd;
    /** Whether the last {@link #string} held an escape. */
    private boolean hasEscape;
    /** Whether the last {@link #string} held a non-ASCII character (well-formed UTF-8, checked). */
    private boolean hasNonAscii;
    // The header's fields as read so far; absent ones keep the general decoder's defaults.
    private int code;
    private int version;
    private int opaque;
    private int flag;
    private String remark;
    private LanguageCode language = LanguageCode.JAVA;
    private JsonHeaderFieldTable extFields;

    private JsonHeaderScanner(byte[] bytes, int start, int end) {
        this.bytes = bytes;
        this.position = start;
        this.end = end;
    }

    /** The decoded command, or {@code null} when the header is not of the plain shape (decode it the general way). */
    static RemotingCommand decodeOrNull(Buffer frame, int start, int length, Buffer body) {
        // The frame's own array when it has one (the frame reader's frames do): the field table keeps pointing into
        // it, as the body slice does, and nobody writes a frame once it is cut.
        ByteBuf bytes = frame instanceof BufferInternal internal ? internal.getByteBuf() : null;
        JsonHeaderScanner scanner;
        if (bytes != null && bytes.hasArray() && bytes.readableBytes() == frame.length()) {
            int arrayStart = bytes.arrayOffset() + start;
            scanner = new JsonHeaderScanner(bytes.array(), arrayStart, arrayStart + length);
        } else {
            scanner = new JsonHeaderScanner(frame.getBytes(start, start + length), 0, length);
        }
        return scanner.command(body);
    }

    private RemotingCommand command(Buffer body) {
        if (!consume('{')) {
            return null;
        }
        boolean isFirst = true;
        while (!consume('}')) {
            if (!isFirst && !consume(',')) {
                return null;
            }
            isFirst = false;
            int nameStart = plainKey();
            if (nameStart < 0 || !consume(':')) {
                return null;
            }
            skipWhitespace();
            if (!field(nameStart, keyEnd - nameStart) || failed) {
                return null;
            }
        }
        skipWhitespace();
        if (position != end) {
            return null;
        }
        return new RemotingCommand(code, language, version, opaque, flag, remark, extFields, body,
            SerializeType.JSON);
    }

    /** One top-level field's value, at {@link #position}; false when the fast path leaves the header alone. */
    private boolean field(int nameStart, int nameLength) {
        if (is(nameStart, nameLength, "code")) {
            code = plainInt();
        } else if (is(nameStart, nameLength, "flag")) {
            flag = plainInt();
        } else if (is(nameStart, nameLength, "opaque")) {
            opaque = plainInt();
        } else if (is(nameStart, nameLength, "version")) {
            version = plainInt();
        } else if (is(nameStart, nameLength, "language")) {
            language = language();
            return language != null;
        } else if (is(nameStart, nameLength, "remark")) {
            return remark();
        } else if (is(nameStart, nameLength, "extFields")) {
            if (literal("null")) {
                extFields = null;
                return true;
            }
            extFields = extFields();
            return extFields != null;
        } else {
            return skipScalar();
        }
        return true;
    }

    private boolean remark() {
        if (literal("null")) {
            remark = null;
            return true;
        }
        int valueStart = position + 1;
        if (!string()) {
            return false;
        }
        remark = JsonStringText.of(bytes, valueStart, position - 1 - valueStart, hasEscape, hasNonAscii);
        return true;
    }

    private JsonHeaderFieldTable extFields() {
        if (!consume('{')) {
            return null;
        }
        JsonHeaderFieldTable.Builder table = new JsonHeaderFieldTable.Builder(bytes);
        boolean isFirst = true;
        while (!consume('}')) {
            if (!isFirst && !consume(',')) {
                return null;
            }
            isFirst = false;
            int keyStart = plainKey();
            if (keyStart < 0 || !consume(':')) {
                return null;
            }
            int keyLength = keyEnd - keyStart;
            skipWhitespace();
            if (literal("null")) {
                continue;
            }
            int valueStart = position + 1;
            if (!string()
                || !table.add(keyStart, keyLength, valueStart, position - 1 - valueStart, hasEscape, hasNonAscii)) {
                return null;
            }
        }
        return table.build();
    }

    /** After whitespace, a string without escapes; its first byte's position (end in {@link #keyEnd}), or -1. */
    private int plainKey() {
        skipWhitespace();
        int keyStart = position + 1;
        if (!string() || hasEscape || hasNonAscii) {
            return -1;
        }
        keyEnd = position - 1;
        return keyStart;
    }

    /**
     * A string at {@link #position}: true with the position after its closing quote, {@link #hasEscape} set when it
     * held one. False for anything the fast path leaves alone: non-ASCII, control bytes, a bad escape, no end.
     */
    private boolean string() {
        if (position >= end || bytes[position] != '"') {
            return false;
        }
        position++;
        hasEscape = false;
        hasNonAscii = false;
        while (true) {
            // Eight plain bytes at a time: most of a send header is ASCII text without escapes.
            while (end - position >= Long.BYTES && !isSpecialInWord((long) LONGS.get(bytes, position))) {
                position += Long.BYTES;
            }
            if (position >= end) {
                return false;
            }
            byte next = bytes[position++];
            if (next == '"') {
                return true;
            }
            if (next < 0) {
                if (!utf8Sequence(next & 0xFF)) {
                    return false;
                }
                hasNonAscii = true;
            } else if (next < 0x20) {
                return false;
            } else if (next == '\\') {
                if (!escape()) {
                    return false;
                }
                hasEscape = true;
            }
        }
    }

    /**
     * Whether any of the word's eight bytes ends the plain run: a quote, a backslash, a control byte or a non-ASCII
     * byte (the classic "has a zero byte" test on the word xor each value; it may flag a byte after a flagged one,
     * never a word without one, so the byte loop decides).
     */
    static boolean isSpecialInWord(long word) {
        long quote = word ^ QUOTES;
        long backslash = word ^ BACKSLASHES;
        long special = (quote - ONES) & ~quote
            | (backslash - ONES) & ~backslash
            | (word - CONTROL_LIMITS) & ~word
            | word;
        return (special & HIGH_BITS) != 0;
    }

    /**
     * The rest of a UTF-8 sequence after its lead byte, accepted only when well-formed (RFC 3629: shortest form, no
     * surrogates, at most U+10FFFF): on such bytes every decoder agrees, so the general one decides anything else.
     */
    private boolean utf8Sequence(int lead) {
        int continuationCount;
        int secondMin = 0x80;
        int secondMax = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            continuationCount = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            continuationCount = 2;
            secondMin = lead == 0xE0 ? 0xA0 : secondMin;
            secondMax = lead == 0xED ? 0x9F : secondMax;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            continuationCount = 3;
            secondMin = lead == 0xF0 ? 0x90 : secondMin;
            secondMax = lead == 0xF4 ? 0x8F : secondMax;
        } else {
            return false;
        }
        if (end - position < continuationCount) {
            return false;
        }
        for (int offset = 0; offset < continuationCount; offset++) {
            int continuation = bytes[position + offset] & 0xFF;
            int min = offset == 0 ? secondMin : 0x80;
            int max = offset == 0 ? secondMax : 0xBF;
            if (continuation < min || continuation > max) {
                return false;
            }
        }
        position += continuationCount;
        return true;
    }

    private boolean escape() {
        if (position >= end) {
            return false;
        }
        byte kind = bytes[position++];
        switch (kind) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return true;
            }
            case 'u' -> {
                if (end - position < 4) {
                    return false;
                }
                for (int offset = 0; offset < 4; offset++) {
                    if (!isHexDigit(bytes[position + offset])) {
                        return false;
                    }
                }
                position += 4;
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** {@code -?[0-9]+} with no leading zero, fitting an int, followed by a separator; else {@link #failed}. */
    private int plainInt() {
        int start = position;
        boolean isNegative = position < end && bytes[position] == '-';
        if (isNegative) {
            position++;
        }
        int digitsStart = position;
        long value = 0;
        while (position < end && bytes[position] >= '0' && bytes[position] <= '9'
            && position - digitsStart < MAX_INT_DIGITS) {
            value = value * 10 + (bytes[position++] - '0');
        }
        int digits = position - digitsStart;
        long signed = isNegative ? -value : value;
        boolean isLeadingZero = digits > 1 && bytes[digitsStart] == '0';
        if (digits == 0 || isLeadingZero || signed != (int) signed || !isValueEnd()) {
            failed = true;
            position = start;
            return 0;
        }
        return (int) signed;
    }

    /** A language given by name (how the Java clients write it), matched without making a string. */
    private LanguageCode language() {
        int valueStart = position + 1;
        if (!string() || hasEscape) {
            return null;
        }
        int length = position - 1 - valueStart;
        for (LanguageCode language : LANGUAGES) {
            if (is(valueStart, length, language.name())) {
                return language;
            }
        }
        return null;
    }

    /** An ignored field's value: a string, a plain number, true, false or null. */
    private boolean skipScalar() {
        if (position < end && bytes[position] == '"') {
            return string();
        }
        if (literal("true") || literal("false") || literal("null")) {
            return true;
        }
        plainInt();
        return !failed;
    }

    private boolean literal(String word) {
        if (end - position < word.length() || !is(position, word.length(), word)) {
            return false;
        }
        int start = position;
        position += word.length();
        if (!isValueEnd()) {
            position = start;
            return false;
        }
        return true;
    }

    /** The next byte after a value can only be whitespace, a comma or a closing brace. */
    private boolean isValueEnd() {
        if (position >= end) {
            return false;
        }
        byte next = bytes[position];
        return next == ',' || next == '}' || isWhitespace(next);
    }

    private boolean consume(char expected) {
        skipWhitespace();
        if (position < end && bytes[position] == expected) {
            position++;
            return true;
        }
        return false;
    }

    private void skipWhitespace() {
        while (position < end && isWhitespace(bytes[position])) {
            position++;
        }
    }

    private static boolean isHexDigit(byte next) {
        return HEX_DIGITS[next & 0xFF];
    }

    private static boolean[] hexDigits() {
        boolean[] digits = new boolean[256];
        for (char digit : "0123456789abcdefABCDEF".toCharArray()) {
            digits[digit] = true;
        }
        return digits;
    }

    private static boolean isWhitespace(byte next) {
        return next == ' ' || next == '\n' || next == '\r' || next == '\t';
    }

    private boolean is(int start, int length, String word) {
        if (length != word.length()) {
            return false;
        }
        for (int offset = 0; offset < length; offset++) {
            if (bytes[start + offset] != word.charAt(offset)) {
                return false;
            }
        }
        return true;
    }
}
