package io.vrmq.remoting.protocol;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A JSON header's extFields read in place: where each key and value lies in the frame's bytes, a value turned into a
 * {@link String} only when someone asks for it. The send path asks for a handful of its ~13 fields as text and reads
 * the numbers straight from the bytes ({@link #plainDecimalAt}), so most of the header never becomes an object.
 *
 * <p>Built only by {@link JsonHeaderScanner}, which guarantees what the look-ups rely on: every key is ASCII
 * without escapes and appears once, every value is a JSON string whose escapes and UTF-8 are well-formed.
 *
 * <p>Immutable to its users (an unmodifiable {@link Map}); the bytes it reads are the received frame's, which nobody
 * writes after the frame was cut. Any thread: the value cache is filled racily with immutable strings, which at
 * worst decodes a value twice.
 */
final class JsonHeaderFieldTable extends AbstractMap<String, String> {
    /** {@link #plainDecimalAt}'s answer for a value that is not a plain decimal: parse the text instead. */
    static final long NOT_PLAIN = Long.MIN_VALUE;
    /**
     * Per field, in {@link #spans}: the key's {@link String#hashCode} (a look-up compares ints, not characters: the
     * send header's keys are all one letter long), where the key and the value lie, the value's length | flags.
     */
    private static final int KEY_HASH = 0, KEY_START = 1, KEY_LENGTH = 2, VALUE_START = 3, VALUE_LENGTH = 4;
    private static final int INTS_PER_FIELD = 5;
    /** Flags beside a value's length (a header is at most 2^24 bytes): it holds escapes, non-ASCII UTF-8. */
    private static final int ESCAPED = 1 << 31;
    private static final int NON_ASCII = 1 << 30;
    private static final int FLAGS = ESCAPED | NON_ASCII;
    /** More digits than this may not fit a long; such a value takes the text path, which reports it. */
    private static final int MAX_PLAIN_DIGITS = 18;
    private static final String[] ONE_CHAR_KEYS = oneCharKeys();

    /** {@link Builder#oneCharIndex} holds a field's index + 1 in a byte: this many fields at most. */
    private static final int MAX_INDEXED_FIELDS = Byte.MAX_VALUE;

    private final byte[] bytes;
    private final int[] spans;
    private final int fieldCount;
    private final String[] values;
    /** By a one-char key's ASCII code, its field's index + 1 (0: absent); null when no key is one char long. */
    private final byte[] oneCharIndex;
    /** False when a header had too many fields for {@link #oneCharIndex}: every look-up scans. */
    private final boolean isIndexed;
    private Set<Map.Entry<String, String>> entrySet;

    private JsonHeaderFieldTable(byte[] bytes, int[] spans, int fieldCount, byte[] oneCharIndex, boolean isIndexed) {
        this.bytes = bytes;
        this.spans = spans;
        this.fieldCount = fieldCount;
        this.values = new String[fieldCount];
        this.oneCharIndex = oneCharIndex;
        this.isIndexed = isIndexed;
    }

    /** Collects the fields as the scanner finds them; not thread-safe. */
    static final class Builder {
        private static final int INITIAL_FIELDS = 16;
        private final byte[] bytes;
        private int[] spans = new int[INITIAL_FIELDS * INTS_PER_FIELD];
        private int fieldCount;

        /** SEND_MESSAGE_V2's keys, a to n, are one char each: found by their code, not by a scan. */
        private byte[] oneCharIndex;
        private boolean isIndexed = true;

        Builder(byte[] bytes) {
            this.bytes = bytes;
        }

        /** False when the key is already there: a duplicate key is left to the general decoder. */
        boolean add(int keyStart, int keyLength, int valueStart, int valueLength, boolean isEscaped,
                    boolean isNonAscii) {
            int keyHash = hashOf(bytes, keyStart, keyLength);
            if (keyLength == 1 && isIndexed) {
                if (oneCharIndex == null) {
                    oneCharIndex = new byte[ONE_CHAR_KEYS.length];
                }
                int key = bytes[keyStart];   // ASCII: the scanner let no other key through
                if (oneCharIndex[key] != 0) {
                    return false;
                }
                if (fieldCount < MAX_INDEXED_FIELDS) {
                    oneCharIndex[key] = (byte) (fieldCount + 1);
                } else {
                    isIndexed = false;
                }
            } else if (indexOf(bytes, spans, fieldCount, keyHash, keyStart, keyLength) >= 0) {
                return false;
            }
            int at = fieldCount * INTS_PER_FIELD;
            if (at == spans.length) {
                spans = Arrays.copyOf(spans, spans.length * 2);
            }
            spans[at + KEY_HASH] = keyHash;
            spans[at + KEY_START] = keyStart;
            spans[at + KEY_LENGTH] = keyLength;
            spans[at + VALUE_START] = valueStart;
            spans[at + VALUE_LENGTH] = valueLength | (isEscaped ? ESCAPED : 0) | (isNonAscii ? NON_ASCII : 0);
            fieldCount++;
            return true;
        }

        JsonHeaderFieldTable build() {
            return new JsonHeaderFieldTable(bytes, spans, fieldCount, oneCharIndex, isIndexed);
        }
    }

    /** The field's index, or -1. */
    int indexOf(String name) {
        int length = name.length();
        if (length == 1 && isIndexed) {
            char key = name.charAt(0);
            return oneCharIndex == null || key >= oneCharIndex.length ? -1 : oneCharIndex[key] - 1;
        }
        int hash = name.hashCode();
        for (int index = 0; index < fieldCount; index++) {
            int at = index * INTS_PER_FIELD;
            if (spans[at + KEY_HASH] == hash && spans[at + KEY_LENGTH] == length
                && keyEquals(spans[at + KEY_START], name)) {
                return index;
            }
        }
        return -1;
    }

    String valueAt(int index) {
        String value = values[index];
        if (value == null) {
            int at = index * INTS_PER_FIELD;
            int lengthAndFlags = spans[at + VALUE_LENGTH];
            value = JsonStringText.of(bytes, spans[at + VALUE_START], lengthAndFlags & ~FLAGS,
                (lengthAndFlags & ESCAPED) != 0, (lengthAndFlags & NON_ASCII) != 0);
            values[index] = value;
        }
        return value;
    }

    /**
     * The value as a number when it is {@code -?[0-9]{1,18}}, what the official client writes for a number field;
     * {@link #NOT_PLAIN} for anything else (empty, signs, spaces, escapes, too long), which the caller parses as text
     * so that every odd case keeps the text path's answer and error.
     */
    long plainDecimalAt(int index) {
        int at = index * INTS_PER_FIELD;
        if ((spans[at + VALUE_LENGTH] & FLAGS) != 0) {
            return NOT_PLAIN;
        }
        int position = spans[at + VALUE_START];
        int end = position + spans[at + VALUE_LENGTH];
        boolean isNegative = position < end && bytes[position] == '-';
        if (isNegative) {
            position++;
        }
        int digits = end - position;
        if (digits == 0 || digits > MAX_PLAIN_DIGITS) {
            return NOT_PLAIN;
        }
        long value = 0;
        for (; position < end; position++) {
            int digit = bytes[position] - '0';
            if (digit < 0 || digit > 9) {
                return NOT_PLAIN;
            }
            value = value * 10 + digit;
        }
        return isNegative ? -value : value;
    }

    /** Whether the value is exactly the ASCII {@code text} as written, without escapes (the send path's flags). */
    boolean isPlainText(int index, String text) {
        int at = index * INTS_PER_FIELD;
        int start = spans[at + VALUE_START];
        if (spans[at + VALUE_LENGTH] != text.length()) {
            return false;
        }
        for (int offset = 0; offset < text.length(); offset++) {
            if (bytes[start + offset] != text.charAt(offset)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int size() {
        return fieldCount;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof String name && indexOf(name) >= 0;
    }

    @Override
    public String get(Object key) {
        if (!(key instanceof String name)) {
            return null;
        }
        int index = indexOf(name);
        return index < 0 ? null : valueAt(index);
    }

    @Override
    public Set<Map.Entry<String, String>> entrySet() {
        Set<Map.Entry<String, String>> entries = entrySet;
        if (entries == null) {
            entries = new Entries();
            entrySet = entries;
        }
        return entries;
    }

    private String keyAt(int index) {
        int at = index * INTS_PER_FIELD;
        int start = spans[at + KEY_START];
        int length = spans[at + KEY_LENGTH];
        return length == 1 ? ONE_CHAR_KEYS[bytes[start]]
            : new String(bytes, start, length, StandardCharsets.ISO_8859_1);
    }

    private boolean keyEquals(int keyStart, String name) {
        for (int offset = 0; offset < name.length(); offset++) {
            if (bytes[keyStart + offset] != name.charAt(offset)) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] bytes, int[] spans, int fieldCount, int keyHash, int keyStart, int keyLength) {
        for (int index = 0; index < fieldCount; index++) {
            int at = index * INTS_PER_FIELD;
            if (spans[at + KEY_HASH] == keyHash && spans[at + KEY_LENGTH] == keyLength
                && sameBytes(bytes, spans[at + KEY_START], keyStart, keyLength)) {
                return index;
            }
        }
        return -1;
    }

    /** {@link String#hashCode} of the ASCII key, from its bytes. */
    private static int hashOf(byte[] bytes, int start, int length) {
        int hash = 0;
        for (int offset = 0; offset < length; offset++) {
            hash = 31 * hash + bytes[start + offset];
        }
        return hash;
    }

    /** A plain loop: keys are a few bytes, too short for {@link Arrays#equals}' range checks to pay. */
    private static boolean sameBytes(byte[] bytes, int first, int second, int length) {
        for (int offset = 0; offset < length; offset++) {
            if (bytes[first + offset] != bytes[second + offset]) {
                return false;
            }
        }
        return true;
    }

    /** SEND_MESSAGE_V2's keys are one letter: iterating them needs no new strings. */
    private static String[] oneCharKeys() {
        String[] keys = new String[128];
        for (int ascii = 0; ascii < keys.length; ascii++) {
            keys[ascii] = String.valueOf((char) ascii).intern();
        }
        return keys;
    }

    private final class Entries extends AbstractSet<Map.Entry<String, String>> {
        @Override
        public int size() {
            return fieldCount;
        }

        @Override
        public Iterator<Map.Entry<String, String>> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < fieldCount;
                }

                @Override
                public Map.Entry<String, String> next() {
                    if (next >= fieldCount) {
                        throw new NoSuchElementException();
                    }
                    int index = next++;
                    return new AbstractMap.SimpleImmutableEntry<>(keyAt(index), valueAt(index));
                }
            };
        }
    }
}
