package io.vrmq.broker.filter;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node of a compiled filter expression. {@link #evaluate} gives a value of the kinds {@link SqlValues} names;
 * conditions give TRUE, FALSE or null (unknown: a property is missing), with SQL's three-valued AND, OR and NOT.
 * A {@link SqlValues.Mismatch} thrown anywhere fails the whole expression for that message. Immutable: any thread.
 */
sealed interface SqlNode {
    Object evaluate(Map<String, String> properties);

    /** RocketMQ's "boolean expression": a condition, or the TRUE, FALSE and NULL literals. */
    default boolean isCondition() {
        return true;
    }

    /** A string, number, TRUE, FALSE or NULL literal. */
    default boolean isLiteral() {
        return false;
    }

    /** The operands, for walking the tree without recursion. */
    default List<SqlNode> children() {
        return List.of();
    }

    /** Nodes on the longest path from {@code root} to a leaf; iterative, so any tree can be measured. */
    static int depth(SqlNode root) {
        int deepest = 0;
        Deque<Map.Entry<SqlNode, Integer>> pending = new ArrayDeque<>();
        pending.push(Map.entry(root, 1));
        while (!pending.isEmpty()) {
            Map.Entry<SqlNode, Integer> next = pending.pop();
            deepest = Math.max(deepest, next.getValue());
            for (SqlNode child : next.getKey().children()) {
                pending.push(Map.entry(child, next.getValue() + 1));
            }
        }
        return deepest;
    }

    record Literal(Object value) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            return value;
        }

        @Override
        public boolean isCondition() {
            return value == null || value instanceof Boolean;
        }

        @Override
        public boolean isLiteral() {
            return true;
        }
    }

    record Property(String name) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            return properties.get(name);
        }

        @Override
        public boolean isCondition() {
            return false;
        }
    }

    /** Unary minus: a number negated in its own type; anything else (a string, a condition) is null. */
    record Negate(SqlNode operand) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            Object value = operand.evaluate(properties);
            if (value instanceof Integer number) {
                return -number;
            }
            if (value instanceof Long number) {
                return -number;
            }
            if (value instanceof Double number) {
                return -number;
            }
            return null;
        }

        @Override
        public boolean isCondition() {
            return false;
        }

        @Override
        public List<SqlNode> children() {
            return List.of(operand);
        }
    }

    /** A property used as a condition: null when missing, FALSE otherwise (a property is a string, not a Boolean). */
    record PropertyAsCondition(SqlNode property) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            Object value = property.evaluate(properties);
            if (value == null) {
                return null;
            }
            return value instanceof Boolean ? value : Boolean.FALSE;
        }

        @Override
        public List<SqlNode> children() {
            return List.of(property);
        }
    }

    record Not(SqlNode operand) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            Boolean value = (Boolean) operand.evaluate(properties);
            return value == null ? null : !value;
        }

        @Override
        public List<SqlNode> children() {
            return List.of(operand);
        }
    }

    /**
     * AND of two or more conditions, evaluated left to right: FALSE at the first FALSE (the rest is not evaluated),
     * else null when one was null, else TRUE. The same as RocketMQ's left-nested ANDs, without their depth.
     */
    record And(List<SqlNode> operands) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            boolean isUnknown = false;
            for (SqlNode operand : operands) {
                Boolean value = (Boolean) operand.evaluate(properties);
                if (Boolean.FALSE.equals(value)) {
                    return Boolean.FALSE;
                }
                isUnknown |= value == null;
            }
            return isUnknown ? null : Boolean.TRUE;
        }

        @Override
        public List<SqlNode> children() {
            return operands;
        }
    }

    /** OR of two or more conditions, left to right: TRUE at the first TRUE, else null when one was null, else FALSE. */
    record Or(List<SqlNode> operands) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            boolean isUnknown = false;
            for (SqlNode operand : operands) {
                Boolean value = (Boolean) operand.evaluate(properties);
                if (Boolean.TRUE.equals(value)) {
                    return Boolean.TRUE;
                }
                isUnknown |= value == null;
            }
            return isUnknown ? null : Boolean.FALSE;
        }

        @Override
        public List<SqlNode> children() {
            return operands;
        }
    }

    /** {@code =} and IS NULL (an Equal with a NULL literal on the right); both sides are evaluated first. */
    record Equal(SqlNode left, SqlNode right) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            return SqlValues.equal(left.evaluate(properties), right.evaluate(properties));
        }

        @Override
        public List<SqlNode> children() {
            return List.of(left, right);
        }
    }

    /** {@code > >= < <=}: null when the left side is missing (the right is then not evaluated) or the right is. */
    record Order(Operator operator, SqlNode left, SqlNode right) implements SqlNode {
        enum Operator { GREATER, GREATER_EQUAL, LESS, LESS_EQUAL }

        @Override
        public Object evaluate(Map<String, String> properties) {
            Object leftValue = left.evaluate(properties);
            if (leftValue == null) {
                return null;
            }
            Object rightValue = right.evaluate(properties);
            if (rightValue == null) {
                return null;
            }
            int sign = SqlValues.order(leftValue, rightValue);
            return switch (operator) {
                case GREATER -> sign > 0;
                case GREATER_EQUAL -> sign >= 0;
                case LESS -> sign < 0;
                case LESS_EQUAL -> sign <= 0;
            };
        }

        @Override
        public List<SqlNode> children() {
            return List.of(left, right);
        }
    }

    /**
     * CONTAINS / STARTSWITH / ENDSWITH and their NOT forms: FALSE (not null) when the value is missing or not a
     * string, or when the searched text is empty; the NOT form is FALSE then too.
     */
    record TextMatch(Function function, boolean isNegated, SqlNode operand, String search) implements SqlNode {
        enum Function { CONTAINS, STARTSWITH, ENDSWITH }

        @Override
        public Object evaluate(Map<String, String> properties) {
            if (search.isEmpty()) {
                return Boolean.FALSE;
            }
            if (!(operand.evaluate(properties) instanceof String value)) {
                return Boolean.FALSE;
            }
            boolean isFound = switch (function) {
                case CONTAINS -> value.contains(search);
                case STARTSWITH -> value.startsWith(search);
                case ENDSWITH -> value.endsWith(search);
            };
            return isFound != isNegated;
        }

        @Override
        public List<SqlNode> children() {
            return List.of(operand);
        }
    }

    /** [NOT] IN on a property: null when it is missing; strings compare exactly (no number conversion). */
    record In(Property property, Set<String> values, boolean isNegated) implements SqlNode {
        @Override
        public Object evaluate(Map<String, String> properties) {
            Object value = property.evaluate(properties);
            if (!(value instanceof String text)) {
                return null;
            }
            return values.contains(text) != isNegated;
        }

        @Override
        public List<SqlNode> children() {
            return List.of(property);
        }
    }
}
