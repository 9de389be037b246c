package io.vrmq.broker.filter;

/**
 * One token of a filter expression.
 *
 * @param kind     what it is
 * @param text     the characters as written (a string literal with its quotes, a number with its suffix)
 * @param position index of its first character in the expression, for error messages
 */
record SqlToken(Kind kind, String text, int position) {
    enum Kind {
        END, NOT, AND, OR, BETWEEN, IN, TRUE, FALSE, NULL, IS, CONTAINS, STARTSWITH, ENDSWITH,
        DECIMAL, FLOAT, STRING, IDENTIFIER,
        EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, LEFT_PAREN, COMMA, RIGHT_PAREN, PLUS, MINUS
    }

    boolean is(Kind expected) {
        return kind == expected;
    }

    String describe() {
        return kind == Kind.END ? "the end of the expression" : "'" + text + "' at " + position;
    }
}
