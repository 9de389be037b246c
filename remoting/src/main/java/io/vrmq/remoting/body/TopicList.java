package io.vrmq.remoting.body;

import java.util.Set;

/** A set of topic names (206, 224, 304 bodies); {@code brokerAddr} is set only by the system-topic list. */
public record TopicList(Set<String> topicList, String brokerAddr) {
    public TopicList(Set<String> topicList) {
        this(topicList, null);
    }
}
