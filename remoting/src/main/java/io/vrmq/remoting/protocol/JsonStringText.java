package io.vrmq.remoting.protocol;

import io.netty.util.concurrent.FastThreadLocal;

import java.nio.charset.StandardCharsets;

/**
 * The text of a JSON string's body that {@link JsonHeaderScanner} has checked (escapes complete and valid, UTF-8
 * well-formed), decoded as Jackson decodes it. Any thread: its only state is each thread's own scratch array.
 */
final class JsonStringText {
    private static final int LATIN1_MAX = 0xFF;
    /** {@code \}{@code uXXXX}: the backslash, the u and four hex digits. */
    private static final int UNICODE_ESCAPE_BYTES = 6;
    /**
     * The unescaped text of a value up to this long is built in the thread's scratch array, then copied into its
     * string (one array per value instead of two: the properties field of every send).
     */
    private static final int SCRATCH_BYTES = 4 * 1024;
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[SCRATCH_BYTES];
        }
    };

    private JsonStringText() {
    }

    static String of(byte[] bytes, int start, int length, boolean hasEscape, boolean hasNonAscii) {
        if (!hasEscape) {
            return new String(bytes, start, length, hasNonAscii ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        }
        if (!hasNonAscii) {
            String latin1 = unescapeLatin1(bytes, start, length);
            if (latin1 != null) {
                return latin1;
            }
        }
        return unescape(bytes, start, length);
    }

    /**
     * The common case (the properties field's \u0001 and \u0002): ASCII with escapes to Latin-1 characters, into one
     * byte array; {@code null} when an escape names a wider character.
     */
    private static String unescapeLatin1(byte[] bytes, int start, int length) {
        byte[] text = length <= SCRATCH_BYTES ? SCRATCH.get() : new byte[length];
        int textLength = 0;
        int end = start + length;
        int position = start;
        while (position < end) {
            byte next = bytes[position];
            if (next != '\\') {
                text[textLength++] = next;
                position++;
            } else if (bytes[position + 1] == 'u') {
                int unit = hex4(bytes, position + 2);
                if (unit > LATIN1_MAX) {
                    return null;
                }
                text[textLength++] = (byte) unit;
                position += UNICODE_ESCAPE_BYTES;
            } else {
                text[textLength++] = (byte) shortEscape(bytes[position + 1]);
                position += 2;
            }
        }
        return new String(text, 0, textLength, StandardCharsets.ISO_8859_1);
    }

    private static String unescape(byte[] bytes, int start, int length) {
        int end = start + length;
        StringBuilder text = new StringBuilder(length);
        int position = start;
        while (position < end) {
            byte next = bytes[position];
            if (next < 0) {
                // A run of UTF-8 up to the next escape: a backslash never occurs inside a multi-byte sequence.
                int runEnd = position + 1;
                while (runEnd < end && bytes[runEnd] != '\\') {
                    runEnd++;
                }
                text.append(new String(bytes, position, runEnd - position, StandardCharsets.UTF_8));
                position = runEnd;
            } else if (next != '\\') {
                text.append((char) next);
                position++;
            } else if (bytes[position + 1] == 'u') {
                text.append((char) hex4(bytes, position + 2));
                position += UNICODE_ESCAPE_BYTES;
            } else {
                text.append(shortEscape(bytes[position + 1]));
                position += 2;
            }
        }
        return text.toString();
    }

    private static char shortEscape(byte kind) {
        return switch (kind) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> (char) kind; // " \ /
        };
    }

    private static int hex4(byte[] bytes, int start) {
        int unit = 0;
        for (int offset = 0; offset < 4; offset++) {
            unit = unit << 4 | hexDigit(bytes[start + offset]);
        }
        return unit;
    }

    /** The scanner let only 0-9, a-f and A-F through. */
    private static int hexDigit(byte digit) {
        if (digit <= '9') {
            return digit - '0';
        }
        return (digit | 0x20) - 'a' + 10;
    }
}
