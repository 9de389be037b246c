package io.vrmq.store.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TopicNamesTest {
    private static final Pattern RULE = Pattern.compile(TopicNames.NAME_PATTERN);

    @Test
    void everyCharacterIsJudgedAsRocketMqsPatternJudgesIt() {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String name = "a" + (char) c + "b";
            assertEquals(RULE.matcher(name).matches(), TopicNames.hasOnlyNameChars(name), "character " + c);
        }
    }

    @Test
    void emptyNamesAndNamesOverTheTopicLimitAreRefused() {
        assertFalse(TopicNames.hasOnlyNameChars(""));
        assertFalse(TopicNames.isValid(null));
        assertTrue(TopicNames.isValid("%RETRY%group|a_b-C9"));
        assertTrue(TopicNames.isValid("t".repeat(TopicNames.MAX_TOPIC_LENGTH)));
        assertFalse(TopicNames.isValid("t".repeat(TopicNames.MAX_TOPIC_LENGTH + 1)));
    }
}
