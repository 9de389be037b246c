package io.vrmq.broker.processor;

import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

/**
 * A slave stores only what its master streams to it: sends, batches and send-backs are refused before anything
 * (a topic, a group) is created, with RocketMQ's SERVICE_NOT_AVAILABLE, so a client retries elsewhere.
 */
public final class SlaveWriteGuard {
    private SlaveWriteGuard() {
    }

    public static void requireWritable(BrokerContext broker) {
        if (broker.replication().isSlave()) {
            throw new RemotingCommandException(ResponseCode.SERVICE_NOT_AVAILABLE, "broker "
                + broker.config().brokerName() + " (brokerId " + broker.config().brokerId() + ") is a slave: "
                + "messages are sent to its master and replicated here");
        }
    }
}
