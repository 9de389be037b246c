package io.vrmq.broker.filter;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Property-based check of the broker's SQL92 filter: random expressions (rendered as text with only the
 * parentheses precedence needs, keywords in random case) and random messages; the broker's decision must equal an
 * evaluation written here independently, straight from RocketMQ's rules, with four outcomes (TRUE, FALSE, UNKNOWN
 * for a missing property, ERROR for a failed comparison, which fails the whole expression) propagated explicitly
 * instead of by exceptions. Seeded, so a failure repeats; the seed and expression are in the message.
 */
class SqlSelectorPropertyTest {
    private static final int EXPRESSIONS = 4_000;
    private static final int MESSAGES_PER_EXPRESSION = 6;
    private static final String[] NAMES = {"a", "b", "c", "TAGS"};
    private static final String[] PROPERTY_VALUES = {"10", "-3", "5.5", "3000000000", "abc", "ab", "", "true",
        " 6 ", "1e1", "0", "NaN", "TagA", "-0.0", "2147483648"};
    private static final String[] STRINGS = {"abc", "ab", "10", "it's", "TagA", "true", "b"};

    private enum Outcome { TRUE, FALSE, UNKNOWN, ERROR }

    private enum Kind { INT, LONG, DOUBLE, TEXT, PROPERTY }

    /** An operand: a literal of a kind (value as text for TEXT, as a Number otherwise) or a property. */
    private record Operand(Kind kind, Object value, String rendered) {
    }

    private interface Condition {
        String render();

        Outcome evaluate(Map<String, String> message);

        /** 0 = OR, 1 = AND, 2 = anything tighter. */
        default int precedence() {
            return 2;
        }
    }

    @Test
    void brokerDecisionEqualsTheIndependentEvaluation() {
        long seed = 20261201L;
        Random random = new Random(seed);
        int checked = 0;
        for (int i = 0; i < EXPRESSIONS; i++) {
            Condition condition = condition(random, 3);
            String text = condition.render();
            SqlSelector selector = SqlSelector.compile(text);
            for (int m = 0; m < MESSAGES_PER_EXPRESSION; m++) {
                Map<String, String> message = message(random);
                boolean expected = condition.evaluate(message) == Outcome.TRUE;
                assertEquals(expected, selector.matches(message), () -> "seed " + seed + ": [" + text + "] on "
                    + message);
                checked++;
            }
        }
        assertEquals(EXPRESSIONS * MESSAGES_PER_EXPRESSION, checked);
    }

    // ---------------------------------------------------------------- generation

    private static Map<String, String> message(Random random) {
        Map<String, String> message = new HashMap<>();
        for (String name : NAMES) {
            if (random.nextInt(4) != 0) {
                message.put(name, PROPERTY_VALUES[random.nextInt(PROPERTY_VALUES.length)]);
            }
        }
        return message;
    }

    private static Condition condition(Random random, int depth) {
        int choice = random.nextInt(depth <= 0 ? 6 : 9);
        return switch (choice) {
            case 0, 1 -> comparison(random);
            case 2 -> between(random);
            case 3 -> in(random);
            case 4 -> isNull(random);
            case 5 -> textMatch(random);
            case 6 -> logic(random, depth, true);
            case 7 -> logic(random, depth, false);
            default -> not(condition(random, depth - 1));
        };
    }

    private static String keyword(Random random, String word) {
        return random.nextBoolean() ? word : word.toLowerCase(Locale.ROOT);
    }

    private static Operand property(Random random) {
        String name = random.nextInt(8) == 0 ? "missing" : NAMES[random.nextInt(NAMES.length)];
        return new Operand(Kind.PROPERTY, name, name);
    }

    private static Operand number(Random random) {
        switch (random.nextInt(3)) {
            case 0 -> {
                int value = random.nextInt(41) - 20;
                return new Operand(Kind.INT, value, Integer.toString(value));
            }
            case 1 -> {
                long value = (random.nextBoolean() ? 1 : -1) * (3_000_000_000L + random.nextInt(3));
                return new Operand(Kind.LONG, value, value + (random.nextBoolean() ? "L" : ""));
            }
            default -> {
                double[] values = {0.5, 2.5, 5.5, 10.0, -3.0, 6.0, 3.0e9};
                String[] texts = {".5", "2.5", "5.50", "1e1", "-3.0", "6.", "3E9"};
                int pick = random.nextInt(values.length);
                return new Operand(Kind.DOUBLE, values[pick], texts[pick]);
            }
        }
    }

    private static Operand text(Random random) {
        String value = STRINGS[random.nextInt(STRINGS.length)];
        return new Operand(Kind.TEXT, value, quote(value));
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static Condition comparison(Random random) {
        String[] operators = {"=", "<>", ">", ">=", "<", "<="};
        String operator = operators[random.nextInt(operators.length)];
        boolean isEquality = operator.equals("=") || operator.equals("<>");
        Operand left = random.nextInt(4) == 0 ? (isEquality && random.nextBoolean() ? text(random) : number(random))
            : property(random);
        Operand right = random.nextInt(4) == 0 ? property(random)
            : isEquality && random.nextBoolean() ? text(random) : number(random);
        return new Condition() {
            public String render() {
                return left.rendered() + " " + operator + " " + right.rendered();
            }

            public Outcome evaluate(Map<String, String> message) {
                return switch (operator) {
                    case "=" -> equal(left, right, message);
                    case "<>" -> negate(equal(left, right, message));
                    default -> order(operator, left, right, message);
                };
            }
        };
    }

    private static Condition between(Random random) {
        Operand value = property(random);
        Operand low = number(random);
        Operand high = number(random);
        if (numeric(high) < numeric(low)) {
            Operand swap = low;
            low = high;
            high = swap;
        }
        boolean isNegated = random.nextBoolean();
        Operand lowBound = low;
        Operand highBound = high;
        return new Condition() {
            public String render() {
                return value.rendered() + (isNegated ? " " + keyword(random, "NOT") : "") + " "
                    + keyword(random, "BETWEEN") + " " + lowBound.rendered() + " " + keyword(random, "AND") + " "
                    + highBound.rendered();
            }

            public Outcome evaluate(Map<String, String> message) {
                if (isNegated) {
                    return or(order("<", value, lowBound, message), () -> order(">", value, highBound, message));
                }
                return and(order(">=", value, lowBound, message), () -> order("<=", value, highBound, message));
            }
        };
    }

    private static Condition in(Random random) {
        Operand value = property(random);
        List<String> values = new ArrayList<>();
        int count = 1 + random.nextInt(6);
        for (int i = 0; i < count; i++) {
            values.add(random.nextInt(5) == 0 ? "" : STRINGS[random.nextInt(STRINGS.length)]);
        }
        boolean isNegated = random.nextBoolean();
        return new Condition() {
            public String render() {
                List<String> quoted = values.stream().map(SqlSelectorPropertyTest::quote).toList();
                return value.rendered() + (isNegated ? " NOT" : "") + " IN (" + String.join(", ", quoted) + ")";
            }

            public Outcome evaluate(Map<String, String> message) {
                String present = message.get((String) value.value());
                if (present == null) {
                    return Outcome.UNKNOWN;
                }
                return of(values.contains(present) != isNegated);
            }
        };
    }

    private static Condition isNull(Random random) {
        Operand value = property(random);
        boolean isNegated = random.nextBoolean();
        return new Condition() {
            public String render() {
                return value.rendered() + " " + keyword(random, "IS") + (isNegated ? " NOT" : "") + " NULL";
            }

            public Outcome evaluate(Map<String, String> message) {
                return of((message.get((String) value.value()) == null) != isNegated);
            }
        };
    }

    private static Condition textMatch(Random random) {
        Operand value = property(random);
        String[] functions = {"CONTAINS", "STARTSWITH", "ENDSWITH"};
        String function = functions[random.nextInt(functions.length)];
        String search = random.nextInt(6) == 0 ? "" : STRINGS[random.nextInt(STRINGS.length)].substring(0, 1);
        boolean isNegated = random.nextBoolean();
        return new Condition() {
            public String render() {
                return value.rendered() + (isNegated ? " NOT " : " ") + keyword(random, function) + " "
                    + quote(search);
            }

            public Outcome evaluate(Map<String, String> message) {
                String present = message.get((String) value.value());
                if (search.isEmpty() || present == null) {
                    return Outcome.FALSE;
                }
                boolean isFound = switch (function) {
                    case "CONTAINS" -> present.contains(search);
                    case "STARTSWITH" -> present.startsWith(search);
                    default -> present.endsWith(search);
                };
                return of(isFound != isNegated);
            }
        };
    }

    private static Condition logic(Random random, int depth, boolean isAnd) {
        Condition left = condition(random, depth - 1);
        Condition right = condition(random, depth - 1);
        int own = isAnd ? 1 : 0;
        return new Condition() {
            public String render() {
                return wrap(left, own) + " " + keyword(random, isAnd ? "AND" : "OR") + " " + wrapRight(right, own);
            }

            public Outcome evaluate(Map<String, String> message) {
                Outcome first = left.evaluate(message);
                return isAnd ? and(first, () -> right.evaluate(message)) : or(first, () -> right.evaluate(message));
            }

            public int precedence() {
                return own;
            }
        };
    }

    private static Condition not(Condition operand) {
        return new Condition() {
            public String render() {
                return "NOT (" + operand.render() + ")";
            }

            public Outcome evaluate(Map<String, String> message) {
                return negate(operand.evaluate(message));
            }
        };
    }

    /** Parenthesised when it binds looser than its parent. */
    private static String wrap(Condition child, int parentPrecedence) {
        return child.precedence() < parentPrecedence ? "(" + child.render() + ")" : child.render();
    }

    /** A right operand of the same precedence keeps its grouping: a AND (b AND c) is written so. */
    private static String wrapRight(Condition child, int parentPrecedence) {
        return child.precedence() <= parentPrecedence ? "(" + child.render() + ")" : child.render();
    }

    // ---------------------------------------------------------------- the independent evaluation

    private static Outcome of(boolean value) {
        return value ? Outcome.TRUE : Outcome.FALSE;
    }

    private static Outcome negate(Outcome outcome) {
        return switch (outcome) {
            case TRUE -> Outcome.FALSE;
            case FALSE -> Outcome.TRUE;
            default -> outcome;
        };
    }

    private static Outcome and(Outcome left, java.util.function.Supplier<Outcome> right) {
        if (left == Outcome.FALSE || left == Outcome.ERROR) {
            return left;
        }
        Outcome second = right.get();
        if (second == Outcome.FALSE || second == Outcome.ERROR) {
            return second;
        }
        return left == Outcome.UNKNOWN || second == Outcome.UNKNOWN ? Outcome.UNKNOWN : Outcome.TRUE;
    }

    private static Outcome or(Outcome left, java.util.function.Supplier<Outcome> right) {
        if (left == Outcome.TRUE || left == Outcome.ERROR) {
            return left;
        }
        Outcome second = right.get();
        if (second == Outcome.TRUE || second == Outcome.ERROR) {
            return second;
        }
        return left == Outcome.UNKNOWN || second == Outcome.UNKNOWN ? Outcome.UNKNOWN : Outcome.FALSE;
    }

    /** The operand's kind and value for this message: a property becomes TEXT, or null when missing. */
    private static Operand resolve(Operand operand, Map<String, String> message) {
        if (operand.kind() != Kind.PROPERTY) {
            return operand;
        }
        String value = message.get((String) operand.value());
        return value == null ? null : new Operand(Kind.TEXT, value, value);
    }

    private static Outcome equal(Operand leftOperand, Operand rightOperand, Map<String, String> message) {
        Operand left = resolve(leftOperand, message);
        Operand right = resolve(rightOperand, message);
        if (left == null && right == null) {
            return Outcome.TRUE;
        }
        if (left == null) {
            return Outcome.UNKNOWN;
        }
        if (right == null) {
            return Outcome.FALSE;
        }
        if (left.kind() == Kind.TEXT && right.kind() == Kind.TEXT) {
            return of(left.value().equals(right.value()));
        }
        Integer sign = numericSign(left, right);
        return sign == null ? Outcome.ERROR : of(sign == 0);
    }

    private static Outcome order(String operator, Operand leftOperand, Operand rightOperand,
                                 Map<String, String> message) {
        Operand left = resolve(leftOperand, message);
        Operand right = resolve(rightOperand, message);
        if (left == null || right == null) {
            return Outcome.UNKNOWN;
        }
        Integer sign;
        if (left.kind() == Kind.TEXT && right.kind() == Kind.TEXT) {
            Double leftNumber = parse(Kind.DOUBLE, (String) left.value());
            Double rightNumber = parse(Kind.DOUBLE, (String) right.value());
            sign = leftNumber == null || rightNumber == null ? null : Double.compare(leftNumber, rightNumber);
        } else {
            sign = numericSign(left, right);
        }
        if (sign == null) {
            return Outcome.ERROR;
        }
        return of(switch (operator) {
            case ">" -> sign > 0;
            case ">=" -> sign >= 0;
            case "<" -> sign < 0;
            default -> sign <= 0;
        });
    }

    /** Sign of left - right with at least one number: a text side is read as the other side's kind; null = ERROR. */
    private static Integer numericSign(Operand left, Operand right) {
        Kind kind = left.kind() == Kind.TEXT ? right.kind() : right.kind() == Kind.TEXT ? left.kind()
            : left.kind() == Kind.DOUBLE || right.kind() == Kind.DOUBLE ? Kind.DOUBLE : Kind.LONG;
        Number leftNumber = left.kind() == Kind.TEXT ? parse(kind, (String) left.value()) : (Number) left.value();
        Number rightNumber = right.kind() == Kind.TEXT ? parse(kind, (String) right.value()) : (Number) right.value();
        if (leftNumber == null || rightNumber == null) {
            return null;
        }
        if (kind == Kind.DOUBLE) {
            return Double.compare(leftNumber.doubleValue(), rightNumber.doubleValue());
        }
        return Long.compare(leftNumber.longValue(), rightNumber.longValue());
    }

    @SuppressWarnings("unchecked")
    private static <T extends Number> T parse(Kind kind, String text) {
        try {
            return (T) switch (kind) {
                case INT -> (Number) Integer.parseInt(text);
                case LONG -> (Number) Long.parseLong(text);
                default -> (Number) Double.parseDouble(text);
            };
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static double numeric(Operand operand) {
        return ((Number) operand.value()).doubleValue();
    }
}
