package io.vrmq.remoting.body;

import java.util.Set;

/** The body of HEART_BEAT (34): the client's id and its producer and consumer groups. */
public record HeartbeatData(String clientID, Set<ProducerData> producerDataSet, Set<ConsumerData> consumerDataSet,
                            int heartbeatFingerprint, boolean withoutSub) {
    public HeartbeatData {
        producerDataSet = producerDataSet == null ? Set.of() : producerDataSet;
        consumerDataSet = consumerDataSet == null ? Set.of() : consumerDataSet;
    }
}
