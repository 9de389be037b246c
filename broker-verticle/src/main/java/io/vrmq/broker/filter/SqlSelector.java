package io.vrmq.broker.filter;

import java.util.Map;

/**
 * A compiled SQL92 filter expression (see {@link SqlParser} for the grammar). A message matches when the expression
 * is TRUE for its properties; FALSE, unknown (null: a property it needs is missing) and a failed comparison (a
 * property that does not parse as the number it is compared with) all mean no match, as in RocketMQ. Immutable: any
 * thread.
 */
public final class SqlSelector {
    private final String expression;
    private final SqlNode root;

    private SqlSelector(String expression, SqlNode root) {
        this.expression = expression;
        this.root = root;
    }

    /** Throws {@link FilterParseException} when the expression does not compile. */
    public static SqlSelector compile(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new FilterParseException("the SQL92 expression is empty");
        }
        return new SqlSelector(expression, SqlParser.parse(expression));
    }

    public boolean matches(Map<String, String> properties) {
        try {
            return Boolean.TRUE.equals(root.evaluate(properties));
        } catch (SqlValues.Mismatch e) {
            return false;
        }
    }

    public String expression() {
        return expression;
    }

    @Override
    public String toString() {
        return expression;
    }
}
