package io.vrmq.remoting.body;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.Set;

/**
 * One topic subscription of a consumer, as heartbeats carry it: the expression ({@code "*"} or
 * {@code "TagA || TagB"}), its tags and their hash codes (what the broker filters ConsumeQueue entries by).
 */
public record SubscriptionData(String topic, String subString, Set<String> tagsSet, Set<Integer> codeSet,
                               long subVersion, String expressionType, boolean classFilterMode) {
    public static final String SUB_ALL = "*";
    public static final String TAG_EXPRESSION = "TAG";

    public SubscriptionData {
        tagsSet = tagsSet == null ? Set.of() : tagsSet;
        codeSet = codeSet == null ? Set.of() : codeSet;
        expressionType = expressionType == null ? TAG_EXPRESSION : expressionType;
    }

    /** Builds a TAG subscription from an expression, the way the official client parses it. */
    public static SubscriptionData ofTags(String topic, String expression, long subVersion) {
        String normalized = expression == null || expression.isBlank() ? SUB_ALL : expression.trim();
        java.util.Set<String> tags = new java.util.LinkedHashSet<>();
        java.util.Set<Integer> codes = new java.util.LinkedHashSet<>();
        if (!normalized.equals(SUB_ALL)) {
            for (String tag : normalized.split("\\|\\|")) {
                String trimmed = tag.trim();
                if (!trimmed.isEmpty()) {
                    tags.add(trimmed);
                    codes.add(trimmed.hashCode());
                }
            }
        }
        return new SubscriptionData(topic, normalized, tags, codes, subVersion, TAG_EXPRESSION, false);
    }

    @JsonIgnore
    public boolean isAll() {
        return SUB_ALL.equals(subString) || codeSet.isEmpty();
    }
}
