package io.vrmq.broker.filter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQL92 filter against RocketMQ 5.5.0's own answers: each expected value below is what its SelectorParser and
 * evaluation gave for the same expression and properties (run once against the official rocketmq-filter jar).
 */
class SqlSelectorTest {
    private static final Map<String, String> MESSAGE = Map.of("a", "10", "s", "abc", "big", "3000000000", "f", "5.5",
        "t", "true", "neg", "-3", "padded", " 6 ", "TAGS", "TagA", "region", "hangzhou", "quote", "it's");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // the official docs' examples
        "a > 5 AND s = 'abc'                                               | true",
        "(TAGS is not null and TAGS in ('TagA', 'TagB')) and (a is not null and a between 0 and 30) | true",
        "region IN ('hangzhou', 'shanghai')                                | true",
        "region NOT IN ('hangzhou', 'shanghai')                            | false",
        "a BETWEEN 10 AND 100                                              | true",
        "TAGS = 'TagA' OR TAGS = 'TagB'                                    | true",
        // keywords in any case, comments, whitespace
        "a = 10 and s = 'abc'                                              | true",
        "/* c */ a = 10                                                    | true",
        // precedence: AND before OR, NOT tighter than comparisons
        "a = 1 OR a = 10 AND s = 'abc'                                     | true",
        "(a = 1 OR a = 10) AND s = 'x'                                     | false",
        "NOT (a = 9)                                                       | true",
        "NOT a = 'x'                                                       | false",
        "NOT a                                                             | true",
        "NOT NOT a = 10                                                    | false",
        "a = 10 = TRUE                                                     | true",
        // a property alone is a condition that is never true (properties are strings)
        "a                                                                 | false",
        "t                                                                 | false",
        "t = TRUE                                                          | true",
        "t <> FALSE                                                        | true",
        // nulls: missing properties make comparisons unknown, and unknown is no match
        "x IS NULL                                                         | true",
        "a IS NULL                                                         | false",
        "a IS NOT NULL AND a > 5                                           | true",
        "x <> 11                                                           | false",
        "NOT (x = 11)                                                      | false",
        "x = y                                                             | true",
        "x <> y                                                            | false",
        "a = x                                                             | false",
        "a <> x                                                            | true",
        "x = 1 OR TRUE                                                     | true",
        "x NOT IN ('a')                                                    | false",
        "x NOT BETWEEN 11 AND 20                                           | false",
        "x NOT CONTAINS 'z'                                                | false",
        "NOT (x CONTAINS 'z')                                              | true",
        "x IN ('a') IS NULL                                                | true",
        // numbers: Integer when it fits, else Long; floats are Double; negatives
        "a = 10                                                            | true",
        "a = '10'                                                          | true",
        "a = 10.0                                                          | true",
        "a = 10L                                                           | true",
        "a = 1e1                                                           | true",
        "a = 2147483648                                                    | false",
        "a < 2147483648                                                    | true",
        "big = 3000000000                                                  | true",
        "big > 5                                                           | false",
        "big > 5.0                                                         | true",
        "f > 5                                                             | false",
        "f > 5.0                                                           | true",
        "f = 5.50                                                          | true",
        "f BETWEEN 5 AND 6                                                 | false",
        "f BETWEEN 5.0 AND 6                                               | false",
        "f BETWEEN 5.0 AND 6.0                                             | true",
        "neg = -3                                                          | true",
        "neg > -4                                                          | true",
        "neg < -2.5                                                        | true",
        "neg = -3.0                                                        | true",
        "a = -(-10)                                                        | true",
        "- a = -10                                                         | false",
        "a > .5                                                            | true",
        "a > 5.                                                            | true",
        "a=+10                                                             | true",
        "padded > 5                                                        | false",
        "padded > 5.0                                                      | true",
        // strings: type mismatch fails the whole expression for that message, even after an OR
        "s = 'abc'                                                         | true",
        "s > 1                                                             | false",
        "s = 10                                                            | false",
        "NOT (s < 10)                                                      | false",
        "a = 10 OR s > 1                                                   | true",
        "s > 1 OR a = 10                                                   | false",
        "a > s                                                             | false",
        "a = s                                                             | false",
        "(a = 10) = 'true'                                                 | false",
        "quote = 'it''s'                                                   | true",
        "'abc' = s                                                         | true",
        // string functions
        "s CONTAINS 'b'                                                    | true",
        "s STARTSWITH 'ab'                                                 | true",
        "s ENDSWITH 'bc'                                                   | true",
        "s NOT CONTAINS 'z'                                                | true",
        "s CONTAINS ''                                                     | false",
        "s NOT STARTSWITH ''                                               | false",
        "a CONTAINS '1'                                                    | true",
        "5 CONTAINS 'x'                                                    | false",
        // literals alone
        "TRUE                                                              | true",
        "FALSE                                                             | false",
        "NULL                                                              | false",
        "1 = 1                                                             | true",
        "5 = TRUE                                                          | false",
        // RocketMQ stops after the selector: what cannot continue it is ignored
        "a = 10 garbage                                                    | true",
        "a = 10)                                                           | true",
        "a = 10 + 1                                                        | true",
        "a = 10 --x                                                        | true",
        "a = 10 , 3                                                        | true",
    })
    void evaluatesAsRocketMq(String expression, boolean expected) {
        assertEquals(expected, SqlSelector.compile(expression).matches(MESSAGE), expression);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
        "", "   ", "a = 10 AND", "(a = 10", "a == 10", "a = 10 #", "a = 1 /* x", "5", "'x'", "--a", "007 = a",
        "x = NULL", "TRUE = NULL", "TRUE = 'true'", "TRUE = 5", "a > 'x'", "a > TRUE", "a BETWEEN 'a' AND 'z'",
        "a BETWEEN 20 AND 1", "a BETWEEN 10 AND 9.5", "a BETWEEN NULL AND 5", "a > 5 > 3", "a > 0.0", "a > 1e-400",
        "a > 1e400", "a = 9223372036854775808", "a > -9223372036854775808", "a IN ()", "a IN ('10',)",
        "-a IN ('x')", "a NOT x", "a = 10 NOT", "a NOT > 5", "a IS x", "a IS NOT x", "a = 10 IS", "+", "NOT",
        "a = 10 AND 'x'", "a BETWEEN 1 AND 2 AND 3", "s = 'unterminated", "a.b = 1", "a = \"x\"",
    })
    void refusesWhatRocketMqRefuses(String expression) {
        assertThrows(FilterParseException.class, () -> SqlSelector.compile(expression));
    }

    @Test
    void aNegatedBetweenWithSwappedBoundsParsesAndNeverMatches() {
        // Only literal bounds are checked; -5 is a negation, as in RocketMQ.
        assertFalse(SqlSelector.compile("a BETWEEN 5 AND -5").matches(MESSAGE));
        assertTrue(SqlSelector.compile("a BETWEEN -5 AND 50").matches(MESSAGE));
    }

    @Test
    void deepNestingIsRefusedInsteadOfExhaustingTheStack() {
        String deep = "(".repeat(10_000) + "a = 10" + ")".repeat(10_000);
        assertThrows(FilterParseException.class, () -> SqlSelector.compile(deep));
        String longChain = "a = 10" + " = TRUE".repeat(10_000);
        assertThrows(FilterParseException.class, () -> SqlSelector.compile(longChain));
    }

    @Test
    void aLongOrChainIsFlatAndEvaluates() {
        StringBuilder expression = new StringBuilder("a = 0");
        for (int i = 1; i <= 5_000; i++) {
            expression.append(" OR a = ").append(i);
        }
        assertTrue(SqlSelector.compile(expression.toString()).matches(MESSAGE));
    }
}
