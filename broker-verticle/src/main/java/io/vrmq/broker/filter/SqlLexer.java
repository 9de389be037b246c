package io.vrmq.broker.filter;

import io.vrmq.broker.filter.SqlToken.Kind;

import java.util.Locale;
import java.util.Map;

/**
 * Splits a filter expression into tokens, one at a time as the parser asks for them, so that (as with RocketMQ's
 * generated parser) characters after the point where the parser stops are never looked at. The token rules are
 * RocketMQ 5.5.0's:
 *
 * <pre>
 *  whitespace   ' ' \t \n \r \f                          skipped
 *  comment      "--" up to and with a line end            skipped ("--" with no line end after it is two '-')
 *               "/*" ... "*&#47;"                          skipped
 *  keyword      NOT AND OR BETWEEN IN TRUE FALSE NULL IS CONTAINS STARTSWITH ENDSWITH   (any case)
 *  identifier   [A-Za-z_$][A-Za-z0-9_$]*                   (a keyword when it spells one)
 *  decimal      "0" | [1-9][0-9]* [lL]?
 *  float        [0-9]+ "." [0-9]* exp? | "." [0-9]+ exp? | [0-9]+ exp        exp = [eE] [+-]? [0-9]+
 *  string       ' ( '' | any character but ' )* '         ('' stands for one quote)
 *  operator     = &lt;&gt; &gt; &gt;= &lt; &lt;= ( , ) + -
 * </pre>
 *
 * Any other character is a lexical error. Not thread-safe: one parse owns it.
 */
final class SqlLexer {
    private static final Map<String, Kind> KEYWORDS = Map.ofEntries(
        Map.entry("NOT", Kind.NOT), Map.entry("AND", Kind.AND), Map.entry("OR", Kind.OR),
        Map.entry("BETWEEN", Kind.BETWEEN), Map.entry("IN", Kind.IN), Map.entry("TRUE", Kind.TRUE),
        Map.entry("FALSE", Kind.FALSE), Map.entry("NULL", Kind.NULL), Map.entry("IS", Kind.IS),
        Map.entry("CONTAINS", Kind.CONTAINS), Map.entry("STARTSWITH", Kind.STARTSWITH),
        Map.entry("ENDSWITH", Kind.ENDSWITH));

    private final String text;
    private int at;

    SqlLexer(String text) {
        this.text = text;
    }

    SqlToken next() {
        skipBlanksAndComments();
        if (at >= text.length()) {
            return new SqlToken(Kind.END, "", at);
        }
        int start = at;
        char c = text.charAt(at);
        if (isIdentifierStart(c)) {
            return identifier(start);
        }
        if (isDigit(c) || (c == '.' && isDigitAt(at + 1))) {
            return number(start);
        }
        if (c == '\'') {
            return string(start);
        }
        return operator(start, c);
    }

    private void skipBlanksAndComments() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                at++;
            } else if (text.startsWith("--", at) && lineEndAfter(at) >= 0) {
                at = lineEndAfter(at) + 1;
            } else if (text.startsWith("/*", at) && text.indexOf("*/", at + 2) >= 0) {
                at = text.indexOf("*/", at + 2) + 2;
            } else {
                return;
            }
        }
    }

    /** Index of the first line end after {@code from}, -1 when the text ends first. */
    private int lineEndAfter(int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                return i;
            }
        }
        return -1;
    }

    private SqlToken identifier(int start) {
        at++;
        while (at < text.length() && (isIdentifierStart(text.charAt(at)) || isDigit(text.charAt(at)))) {
            at++;
        }
        String word = text.substring(start, at);
        Kind keyword = KEYWORDS.get(word.toUpperCase(Locale.ROOT));
        return new SqlToken(keyword == null ? Kind.IDENTIFIER : keyword, word, start);
    }

    /** The longest of the decimal and float rules that matches, as a generated lexer picks. */
    private SqlToken number(int start) {
        int digitsEnd = skipDigits(start);
        if (digitsEnd < text.length() && text.charAt(digitsEnd) == '.') {
            at = skipExponent(skipDigits(digitsEnd + 1));
            return new SqlToken(Kind.FLOAT, text.substring(start, at), start);
        }
        int exponentEnd = skipExponent(digitsEnd);
        if (exponentEnd > digitsEnd) {
            at = exponentEnd;
            return new SqlToken(Kind.FLOAT, text.substring(start, at), start);
        }
        if (text.charAt(start) == '0') {
            at = start + 1;   // "0" is the only decimal that starts with 0: "007" is "0" then "07"
            return new SqlToken(Kind.DECIMAL, "0", start);
        }
        at = digitsEnd;
        if (at < text.length() && (text.charAt(at) == 'l' || text.charAt(at) == 'L')) {
            at++;
        }
        return new SqlToken(Kind.DECIMAL, text.substring(start, at), start);
    }

    private int skipDigits(int from) {
        int i = from;
        while (isDigitAt(i)) {
            i++;
        }
        return i;
    }

    /** The end of an exponent starting at {@code from}, or {@code from} when there is no complete one. */
    private int skipExponent(int from) {
        if (from >= text.length() || (text.charAt(from) != 'e' && text.charAt(from) != 'E')) {
            return from;
        }
        int i = from + 1;
        if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            i++;
        }
        return isDigitAt(i) ? skipDigits(i) : from;
    }

    private SqlToken string(int start) {
        int i = start + 1;
        while (i < text.length()) {
            if (text.charAt(i) == '\'') {
                if (i + 1 < text.length() && text.charAt(i + 1) == '\'') {
                    i += 2;
                    continue;
                }
                at = i + 1;
                return new SqlToken(Kind.STRING, text.substring(start, at), start);
            }
            i++;
        }
        throw new FilterParseException("string starting at " + start + " has no closing quote");
    }

    private SqlToken operator(int start, char c) {
        Kind kind;
        int length = 1;
        char following = start + 1 < text.length() ? text.charAt(start + 1) : 0;
        switch (c) {
            case '=' -> kind = Kind.EQUAL;
            case '>' -> {
                kind = following == '=' ? Kind.GREATER_EQUAL : Kind.GREATER;
                length = following == '=' ? 2 : 1;
            }
            case '<' -> {
                kind = following == '=' ? Kind.LESS_EQUAL : following == '>' ? Kind.NOT_EQUAL : Kind.LESS;
                length = following == '=' || following == '>' ? 2 : 1;
            }
            case '(' -> kind = Kind.LEFT_PAREN;
            case ')' -> kind = Kind.RIGHT_PAREN;
            case ',' -> kind = Kind.COMMA;
            case '+' -> kind = Kind.PLUS;
            case '-' -> kind = Kind.MINUS;
            default -> throw new FilterParseException("unexpected character '" + c + "' at " + start);
        }
        at = start + length;
        return new SqlToken(kind, text.substring(start, at), start);
    }

    private boolean isDigitAt(int index) {
        return index < text.length() && isDigit(text.charAt(index));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
    }
}
