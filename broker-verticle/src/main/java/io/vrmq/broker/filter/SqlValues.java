package io.vrmq.broker.filter;

/**
 * RocketMQ 5.5.0's typing rules for comparing two values of a filter expression. Values are {@code String}
 * (properties, string literals), {@code Integer} / {@code Long} (decimal literals, Integer when it fits),
 * {@code Double} (float literals), {@code Boolean} (TRUE, FALSE, results of conditions) or null (missing).
 *
 * <p>Two values of different types are brought to one type before they compare:
 * <pre>
 *  left \ right   Integer      Long         Double       String                     Boolean
 *  Integer        -            as Long      as Double    right parsed as Integer    unequal (-1)
 *  Long           as Long      -            as Double    right parsed as Long       unequal (-1)
 *  Double         as Double    as Double    -            right parsed as Double     unequal (-1)
 *  String         left parsed  left parsed  left parsed  -                          left parsed as Boolean
 *  Boolean        unequal (-1) unequal (-1) unequal (-1) mismatch                   -
 * </pre>
 * A string that does not parse as the number type is a {@link Mismatch}, as is a Boolean compared with a String
 * on its right: the whole expression then fails for that message, which is not delivered (RocketMQ's evaluation
 * throws there and its filter answers "no match"). For {@code > >= < <=}, two strings both parse as Double.
 * Stateless: any thread.
 */
final class SqlValues {
    private SqlValues() {
    }

    /** {@code =}: null when only the left side is missing, FALSE when only the right is, TRUE when both are. */
    static Boolean equal(Object left, Object right) {
        if ((left == null) != (right == null)) {
            return left == null ? null : Boolean.FALSE;
        }
        if (left == right || left.equals(right)) {
            return Boolean.TRUE;
        }
        return compare(left, right) == 0;
    }

    /** {@code > >= < <=} on two present values, as {@code compare}'s sign; two strings compare as numbers. */
    static int order(Object left, Object right) {
        if (left instanceof String leftText && right instanceof String rightText) {
            return Double.compare(parseDouble(leftText), parseDouble(rightText));
        }
        return compare(left, right);
    }

    static int compare(Object left, Object right) {
        if (left.getClass() == right.getClass()) {
            return compareSameType(left, right);
        }
        if (left instanceof Boolean) {
            if (right instanceof String) {
                throw new Mismatch("a condition's result compared with a string");
            }
            return -1;
        }
        if (left instanceof String text) {
            return compareSameType(parseAs(right, text), right);
        }
        if (right instanceof String text) {
            return compareSameType(left, parseAs(left, text));
        }
        if (right instanceof Boolean) {
            return -1;
        }
        return compareNumbers((Number) left, (Number) right);
    }

    /** Integer with Long compares as long, anything with Double as double. */
    private static int compareNumbers(Number left, Number right) {
        if (left instanceof Double || right instanceof Double) {
            return Double.compare(left.doubleValue(), right.doubleValue());
        }
        return Long.compare(left.longValue(), right.longValue());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareSameType(Object left, Object right) {
        return ((Comparable) left).compareTo(right);
    }

    /** {@code text} as a value of {@code like}'s type. */
    private static Object parseAs(Object like, String text) {
        try {
            if (like instanceof Integer) {
                return Integer.valueOf(text);
            }
            if (like instanceof Long) {
                return Long.valueOf(text);
            }
            if (like instanceof Double) {
                return Double.valueOf(text);
            }
            return Boolean.valueOf(text);
        } catch (NumberFormatException e) {
            throw new Mismatch("'" + text + "' is not a " + like.getClass().getSimpleName());
        }
    }

    private static double parseDouble(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new Mismatch("'" + text + "' is not a number");
        }
    }

    /** A comparison that cannot be made for this message; no stack trace (it is expected, and may be frequent). */
    static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }
}
