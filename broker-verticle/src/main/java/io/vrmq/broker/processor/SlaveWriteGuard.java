package io.vrmq.broker.processor;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

/**
 * A slave stores only what its master streams to it, and a fenced broker (controller mode) nothing: sends, batches
 * and send-backs are refused before anything (a topic, a group) is created, with RocketMQ's SERVICE_NOT_AVAILABLE, so
 * a client retries elsewhere.
 */
public final class SlaveWriteGuard {
    private SlaveWriteGuard() {
    }

    public static void requireWritable(BrokerContext broker) {
        BrokerRole role = broker.role().current();
        if (role.isFenced()) {
            throw new RemotingCommandException(ResponseCode.SERVICE_NOT_AVAILABLE, "broker "
                + broker.config().brokerName() + " is fenced: " + (role.brokerId() == BrokerRole.MASTER_ID
                ? "this master cannot reach the controller leader, which may have elected another master"
                : "the controller has not named its role yet"));
        }
        if (broker.replication().isSlave()) {
            throw new RemotingCommandException(ResponseCode.SERVICE_NOT_AVAILABLE, "broker "
                + broker.config().brokerName() + " (brokerId " + role.brokerId() + ") is a slave: "
                + "messages are sent to its master and replicated here");
        }
    }
}
