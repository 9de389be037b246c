package io.vrmq.broker.pop;

/** One queue as a group consumes it by POP: the topic is the one popped from (a retry topic for retried messages). */
public record QueueKey(String group, String topic, int queueId) {
    @Override
    public String toString() {
        return topic + "@" + group + "@" + queueId;
    }
}
