package io.vrmq.load;

import java.util.Locale;

/**
 * The scale-table figures of one {@link MessageLoadBench} run, a part of its RESULT line.
 *
 * @param producers   producer instances (connections to the broker)
 * @param topicCount  measured topics
 * @param ownedQueues queues the push consumer owned once its rebalance was done (a pull held at the broker for each
 *                    while it has nothing to read); -1 without a consumer
 * @param idle        the broker holding those pulls before the sends
 */
record ScaleFigures(int producers, int topicCount, long ownedQueues, BrokerIdle idle) {

    /** The figures as JSON members, without braces: {@code "producers":1,...}. */
    String jsonFields() {
        return String.format(Locale.ROOT, "\"producers\":%d,\"topicCount\":%d,\"ownedQueues\":%d,\"idleSeconds\":%d,"
                + "\"brokerIdleCpuMillis\":%d,\"brokerIdleRssAnonKib\":%d", producers, topicCount, ownedQueues,
            idle.seconds(), idle.brokerCpuMillis(), idle.brokerRssAnonKib());
    }
}
