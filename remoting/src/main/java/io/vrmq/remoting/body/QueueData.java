package io.vrmq.remoting.body;

/** One broker's queues of a topic, as routes carry them. */
public record QueueData(String brokerName, int readQueueNums, int writeQueueNums, int perm, int topicSysFlag) {
    public static QueueData of(String brokerName, TopicConfig topic) {
        return new QueueData(brokerName, topic.readQueueNums(), topic.writeQueueNums(), topic.perm(),
            topic.topicSysFlag());
    }

    public QueueData withPerm(int newPerm) {
        return new QueueData(brokerName, readQueueNums, writeQueueNums, newPerm, topicSysFlag);
    }
}
