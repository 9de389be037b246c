package io.vrmq.broker.processor;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;

/**
 * A plain send's properties read in place, without the map {@link MessageProperties#parse} builds: what the send
 * path needs (the stored text, WAIT, UNIQ_KEY) from one scan of the text the producer sent.
 *
 * <p>"Plain" means the map path could not change anything but append the broker's own three properties: every pair
 * well-formed ({@code name \u0001 value}, a non-empty name), no name twice, and none of the names the broker routes
 * by or writes itself (delay level, timer, transaction, real topic and queue, CLUSTER, MSG_REGION, TRACE_ON). For such
 * a text the map path's result is the text itself (with the trailing separator the official encoder omits), then
 * CLUSTER, MSG_REGION and TRACE_ON: exactly what {@link #scanOrNull} returns. Anything else is {@code null}, and the
 * caller takes the map path, so every odd or routed message is handled as before. Stateless: any thread.
 */
record PlainSendProperties(String storedText, String uniqKey, boolean isWaitFlush) {
    /** The names the map path acts on or replaces; one of them sends the message down the map path. */
    private static final String[] ROUTED_NAMES = {
        MessageConst.DELAY_TIME_LEVEL, MessageConst.TRANSACTION_PREPARED, MessageConst.TIMER_DELIVER_MS,
        MessageConst.TIMER_DELAY_SEC, MessageConst.TIMER_DELAY_MS, MessageConst.TIMER_OUT_MS,
        MessageConst.START_DELIVER_TIME, MessageConst.REAL_TOPIC, MessageConst.REAL_QUEUE_ID, MessageConst.CLUSTER,
        MessageConst.MSG_REGION, MessageConst.TRACE_SWITCH
    };
    /** More pairs than this take the map path: the duplicate check compares each name with every earlier one. */
    static final int MAX_PAIRS = 32;
    private static final char NAME_END = MessageProperties.NAME_VALUE_SEPARATOR;
    private static final char PAIR_END = MessageProperties.PROPERTY_SEPARATOR;

    /**
     * @param properties       the send's properties text, or null
     * @param brokerSuffix     {@link #brokerSuffix}'s text for this broker
     * @return the plain reading, or null when the message must take the map path
     */
    static PlainSendProperties scanOrNull(String properties, String brokerSuffix) {
        String text = properties == null ? "" : properties;
        int length = text.length();
        int pairCount = 0;
        String uniqKey = null;
        boolean isWaitFlush = true;
        int start = 0;
        while (start < length) {
            int end = text.indexOf(PAIR_END, start);
            if (end < 0) {
                end = length;
            }
            int nameEnd = text.indexOf(NAME_END, start);
            if (nameEnd <= start || nameEnd >= end || pairCount == MAX_PAIRS) {
                return null;    // an empty or nameless pair, which the map path drops, or too many pairs
            }
            int nameLength = nameEnd - start;
            if (isRouted(text, start, nameLength)) {
                return null;
            }
            if (isNameBefore(text, start, nameLength)) {
                return null;    // the map keeps one value (the last) at the first position: not this text
            }
            pairCount++;
            if (isName(text, start, nameLength, MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX)) {
                uniqKey = text.substring(nameEnd + 1, end);
            } else if (isName(text, start, nameLength, MessageConst.WAIT_STORE_MSG_OK)) {
                isWaitFlush = !(end - nameEnd - 1 == 5 && text.startsWith("false", nameEnd + 1));
            }
            start = end + 1;
        }
        boolean needsPairEnd = length > 0 && text.charAt(length - 1) != PAIR_END;
        String stored = needsPairEnd ? text + PAIR_END + brokerSuffix : text.concat(brokerSuffix);
        return new PlainSendProperties(stored, uniqKey, isWaitFlush);
    }

    /**
     * What the map path appends to every stored send, in its order: CLUSTER (left out when the broker has no cluster
     * name, as the map path's null value is), then MSG_REGION and TRACE_ON ({@code TraceStamp}).
     */
    static String brokerSuffix(String clusterName, String region, String traceSwitch) {
        StringBuilder suffix = new StringBuilder();
        if (clusterName != null) {
            suffix.append(MessageConst.CLUSTER).append(NAME_END).append(clusterName).append(PAIR_END);
        }
        return suffix.append(MessageConst.MSG_REGION).append(NAME_END).append(region).append(PAIR_END)
            .append(MessageConst.TRACE_SWITCH).append(NAME_END).append(traceSwitch).append(PAIR_END).toString();
    }

    private static boolean isRouted(String text, int start, int nameLength) {
        for (String routed : ROUTED_NAMES) {
            if (isName(text, start, nameLength, routed)) {
                return true;
            }
        }
        return false;
    }

    /** Whether an earlier pair (all well-formed: checked as they were read) has this name; no arrays to fill. */
    private static boolean isNameBefore(String text, int start, int nameLength) {
        int earlier = 0;
        while (earlier < start) {
            int earlierNameEnd = text.indexOf(NAME_END, earlier);
            if (earlierNameEnd - earlier == nameLength && text.regionMatches(earlier, text, start, nameLength)) {
                return true;
            }
            earlier = text.indexOf(PAIR_END, earlier) + 1;
        }
        return false;
    }

    private static boolean isName(String text, int start, int nameLength, String name) {
        return name.length() == nameLength && text.startsWith(name, start);
    }
}
