package io.vrmq.broker.filter;

import io.vrmq.broker.filter.SqlNode.And;
import io.vrmq.broker.filter.SqlNode.Equal;
import io.vrmq.broker.filter.SqlNode.In;
import io.vrmq.broker.filter.SqlNode.Literal;
import io.vrmq.broker.filter.SqlNode.Negate;
import io.vrmq.broker.filter.SqlNode.Not;
import io.vrmq.broker.filter.SqlNode.Or;
import io.vrmq.broker.filter.SqlNode.Order;
import io.vrmq.broker.filter.SqlNode.Property;
import io.vrmq.broker.filter.SqlNode.PropertyAsCondition;
import io.vrmq.broker.filter.SqlNode.TextMatch;
import io.vrmq.broker.filter.SqlToken.Kind;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser of RocketMQ's SQL92 message filter (the grammar of RocketMQ 5.5.0's SelectorParser,
 * tokens as in {@link SqlLexer}), lowest precedence first:
 *
 * <pre>
 *  selector    := or                                       must be a condition (a property alone is one)
 *  or          := and ( OR and )*
 *  and         := equality ( AND equality )*
 *  equality    := comparison ( "=" comparison | "&lt;&gt;" comparison | IS NULL | IS NOT NULL )*
 *  comparison  := unary ( ("&gt;" | "&gt;=" | "&lt;" | "&lt;=") unary
 *                       | [NOT] (CONTAINS | STARTSWITH | ENDSWITH) string
 *                       | [NOT] BETWEEN unary AND unary
 *                       | [NOT] IN "(" string ( "," string )* ")" )*
 *  unary       := "+" unary | "-" unary | NOT unary | primary
 *  primary     := string | decimal | float | TRUE | FALSE | NULL | identifier | "(" or ")"
 * </pre>
 *
 * As in RocketMQ: NOT binds tighter than comparisons ({@code NOT a = 'x'} is {@code (NOT a) = 'x'}; write
 * {@code NOT (a = 'x')}); the parser stops after the selector, so tokens that cannot continue it are ignored
 * ({@code a = 1 )} is {@code a = 1}); a decimal is an Integer when it fits, else a Long; a float must lie in
 * [Double.MIN_VALUE, Double.MAX_VALUE] (so {@code 0.0} is refused: write {@code 0}); and these are refused when
 * parsing: {@code =} or {@code <>} with a NULL literal, TRUE/FALSE compared with a string or number literal on the
 * right, {@code > >= < <=} with a string, boolean or NULL literal or a condition, BETWEEN with literal bounds in
 * the wrong order or NULL, IN on anything but a property. Not thread-safe: one instance per parse.
 */
final class SqlParser {
    /**
     * Bound on nesting (parentheses, unary operators, chained comparisons): parsing and evaluation recurse once per
     * level on the calling thread's stack, which a hostile expression must not exhaust. Real selectors stay far
     * below it, so it is a fixed protection, not a setting.
     */
    static final int MAX_DEPTH = 128;

    private final SqlLexer lexer;
    private final List<SqlToken> lookahead = new ArrayList<>(2);
    private int nesting;

    private SqlParser(String expression) {
        this.lexer = new SqlLexer(expression);
    }

    /** The compiled selector; throws {@link FilterParseException} with the reason. */
    static SqlNode parse(String expression) {
        SqlParser parser = new SqlParser(expression);
        SqlNode selector = parser.asCondition(parser.or());
        if (SqlNode.depth(selector) > MAX_DEPTH) {
            throw new FilterParseException("expression nested deeper than " + MAX_DEPTH + " levels");
        }
        return selector;
    }

    private SqlNode or() {
        SqlNode first = and();
        if (!peek(1).is(Kind.OR)) {
            return first;
        }
        List<SqlNode> operands = new ArrayList<>(List.of(asCondition(first)));
        while (peek(1).is(Kind.OR)) {
            take();
            operands.add(asCondition(and()));
        }
        return new Or(List.copyOf(operands));
    }

    private SqlNode and() {
        SqlNode first = equality();
        if (!peek(1).is(Kind.AND)) {
            return first;
        }
        List<SqlNode> operands = new ArrayList<>(List.of(asCondition(first)));
        while (peek(1).is(Kind.AND)) {
            take();
            operands.add(asCondition(equality()));
        }
        return new And(List.copyOf(operands));
    }

    private SqlNode equality() {
        SqlNode left = comparison();
        while (true) {
            Kind next = peek(1).kind();
            if (next == Kind.EQUAL) {
                take();
                left = equal(left, comparison());
            } else if (next == Kind.NOT_EQUAL) {
                take();
                left = new Not(equal(left, comparison()));
            } else if (next == Kind.IS) {
                take();
                boolean isNegated = peek(1).is(Kind.NOT);
                if (isNegated) {
                    take();
                }
                expect(Kind.NULL);
                SqlNode isNull = new Equal(left, new Literal(null));
                left = isNegated ? new Not(isNull) : isNull;
            } else {
                return left;
            }
        }
    }

    private SqlNode comparison() {
        SqlNode left = unary();
        while (true) {
            SqlToken next = peek(1);
            boolean isNegated = next.is(Kind.NOT);
            Kind operator = isNegated ? peek(2).kind() : next.kind();
            switch (operator) {
                case GREATER, GREATER_EQUAL, LESS, LESS_EQUAL -> {
                    if (isNegated) {
                        throw unexpected(next);
                    }
                    take();
                    left = order(orderOf(operator), left, unary());
                }
                case CONTAINS, STARTSWITH, ENDSWITH -> {
                    takeOperator(isNegated);
                    left = new TextMatch(TextMatch.Function.valueOf(operator.name()), isNegated, left, string());
                }
                case BETWEEN -> {
                    takeOperator(isNegated);
                    SqlNode low = unary();
                    expect(Kind.AND);
                    left = between(left, low, unary(), isNegated);
                }
                case IN -> {
                    takeOperator(isNegated);
                    left = in(left, stringList(), isNegated);
                }
                default -> {
                    if (isNegated) {
                        throw unexpected(next);   // RocketMQ's parser enters the loop on NOT, then finds no way on
                    }
                    return left;
                }
            }
        }
    }

    private SqlNode unary() {
        if (++nesting > MAX_DEPTH) {
            throw new FilterParseException("expression nested deeper than " + MAX_DEPTH + " levels");
        }
        try {
            SqlToken next = peek(1);
            switch (next.kind()) {
                case PLUS -> {
                    take();
                    return unary();
                }
                case MINUS -> {
                    take();
                    return new Negate(unary());
                }
                case NOT -> {
                    take();
                    return new Not(asCondition(unary()));
                }
                default -> {
                    return primary();
                }
            }
        } finally {
            nesting--;
        }
    }

    private SqlNode primary() {
        SqlToken token = take();
        return switch (token.kind()) {
            case STRING -> new Literal(unquote(token.text()));
            case DECIMAL -> new Literal(decimal(token.text()));
            case FLOAT -> new Literal(floating(token.text()));
            case TRUE -> new Literal(Boolean.TRUE);
            case FALSE -> new Literal(Boolean.FALSE);
            case NULL -> new Literal(null);
            case IDENTIFIER -> new Property(token.text());
            case LEFT_PAREN -> {
                SqlNode inner = or();
                expect(Kind.RIGHT_PAREN);
                yield inner;
            }
            default -> throw unexpected(token);
        };
    }

    // ---------------------------------------------------------------- building nodes, with RocketMQ's checks

    private SqlNode asCondition(SqlNode node) {
        if (node.isCondition()) {
            return node;
        }
        if (node instanceof Property) {
            return new PropertyAsCondition(node);
        }
        throw new FilterParseException("expression will not result in a boolean value: " + describe(node));
    }

    private static SqlNode equal(SqlNode left, SqlNode right) {
        for (SqlNode side : List.of(left, right)) {
            if (side instanceof Literal literal && literal.value() == null) {
                throw new FilterParseException("NULL cannot be compared with = or <>: use IS [NOT] NULL");
            }
        }
        if (left.isLiteral() && right.isLiteral() && left.isCondition() && !right.isCondition()) {
            throw new FilterParseException(describe(left) + " cannot be compared with " + describe(right));
        }
        return new Equal(left, right);
    }

    private static SqlNode order(Order.Operator operator, SqlNode left, SqlNode right) {
        for (SqlNode side : List.of(left, right)) {
            boolean isComparable = side.isLiteral() ? ((Literal) side).value() instanceof Number : !side.isCondition();
            if (!isComparable) {
                throw new FilterParseException(describe(side) + " cannot be compared with " + operator);
            }
        }
        return new Order(operator, left, right);
    }

    private static SqlNode between(SqlNode value, SqlNode low, SqlNode high, boolean isNegated) {
        if (isNegated) {
            return new Or(List.of(order(Order.Operator.LESS, value, low), order(Order.Operator.GREATER, value,
                high)));
        }
        if (low instanceof Literal lowLiteral && high instanceof Literal highLiteral) {
            if (lowLiteral.value() == null || highLiteral.value() == null) {
                throw new FilterParseException("BETWEEN bounds cannot be NULL");
            }
            try {
                if (SqlValues.compare(highLiteral.value(), lowLiteral.value()) < 0) {
                    throw new FilterParseException("BETWEEN needs its low bound (" + lowLiteral.value()
                        + ") at most its high bound (" + highLiteral.value() + ")");
                }
            } catch (SqlValues.Mismatch e) {
                throw new FilterParseException("BETWEEN bounds do not compare: " + e.getMessage());
            }
        }
        return new And(List.of(order(Order.Operator.GREATER_EQUAL, value, low), order(Order.Operator.LESS_EQUAL,
            value, high)));
    }

    private static SqlNode in(SqlNode value, Set<String> values, boolean isNegated) {
        if (!(value instanceof Property property)) {
            throw new FilterParseException("IN needs a property on its left, not " + describe(value));
        }
        return new In(property, Set.copyOf(values), isNegated);
    }

    /** A short name for an operand in an error message (never the whole tree: it may be deep). */
    private static String describe(SqlNode node) {
        if (node instanceof Literal literal) {
            Object value = literal.value();
            return value == null ? "NULL" : value instanceof String text ? "'" + text + "'" : value.toString();
        }
        if (node instanceof Property property) {
            return "property " + property.name();
        }
        return node.isCondition() ? "a condition" : "a negated value";
    }

    private static Order.Operator orderOf(Kind kind) {
        return switch (kind) {
            case GREATER -> Order.Operator.GREATER;
            case GREATER_EQUAL -> Order.Operator.GREATER_EQUAL;
            case LESS -> Order.Operator.LESS;
            default -> Order.Operator.LESS_EQUAL;
        };
    }

    // ---------------------------------------------------------------- literals

    private String string() {
        return unquote(expect(Kind.STRING).text());
    }

    private Set<String> stringList() {
        expect(Kind.LEFT_PAREN);
        Set<String> values = new LinkedHashSet<>();
        values.add(string());
        while (peek(1).is(Kind.COMMA)) {
            take();
            values.add(string());
        }
        expect(Kind.RIGHT_PAREN);
        return values;
    }

    private static String unquote(String quoted) {
        return quoted.substring(1, quoted.length() - 1).replace("''", "'");
    }

    /** Integer when it fits, else Long; beyond Long it does not parse. */
    private static Object decimal(String text) {
        String digits = text.endsWith("l") || text.endsWith("L") ? text.substring(0, text.length() - 1) : text;
        long value;
        try {
            value = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new FilterParseException("number " + text + " is beyond the range of a long");
        }
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? (Object) (int) value : (Object) value;
    }

    private static Double floating(String text) {
        double value = Double.parseDouble(text);
        if (value > Double.MAX_VALUE || value < Double.MIN_VALUE) {
            throw new FilterParseException("number " + text + " is outside [" + Double.MIN_VALUE + ", "
                + Double.MAX_VALUE + "] (RocketMQ's range for a float literal; write 0 for zero)");
        }
        return value;
    }

    // ---------------------------------------------------------------- tokens

    private SqlToken peek(int distance) {
        while (lookahead.size() < distance) {
            lookahead.add(lexer.next());
        }
        return lookahead.get(distance - 1);
    }

    private SqlToken take() {
        SqlToken token = peek(1);
        lookahead.remove(0);
        return token;
    }

    private void takeOperator(boolean isNegated) {
        if (isNegated) {
            take();
        }
        take();
    }

    private SqlToken expect(Kind kind) {
        SqlToken token = take();
        if (!token.is(kind)) {
            throw new FilterParseException("expected " + kind + " but found " + token.describe());
        }
        return token;
    }

    private static FilterParseException unexpected(SqlToken token) {
        return new FilterParseException("unexpected " + token.describe());
    }
}
