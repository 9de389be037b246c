package io.vrmq.remoting.body;

import java.util.Map;

/**
 * A topic's configuration as brokers hold it and send it in registrations. {@code perm} bits: 1 inherit, 2 write,
 * 4 read (see {@link Permission}).
 */
public record TopicConfig(String topicName, int readQueueNums, int writeQueueNums, int perm,
                          String topicFilterType, int topicSysFlag, boolean order, Map<String, String> attributes) {
    public static final String SINGLE_TAG = "SINGLE_TAG";

    public TopicConfig {
        topicFilterType = topicFilterType == null ? SINGLE_TAG : topicFilterType;
        attributes = attributes == null ? Map.of() : attributes;
    }

    public static TopicConfig of(String topicName, int queueNums, int perm) {
        return new TopicConfig(topicName, queueNums, queueNums, perm, SINGLE_TAG, 0, false, Map.of());
    }
}
