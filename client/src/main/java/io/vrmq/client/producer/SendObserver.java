package io.vrmq.client.producer;

import io.vrmq.client.SendResult;
import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * Told of each send attempt a broker answered with a send status, as the official SendMessageHook's
 * sendMessageAfter is (attempts that failed are not reported: they have no result). Called on the producer's context;
 * must not block.
 */
@FunctionalInterface
public interface SendObserver {
    SendObserver NONE = (send, brokerAddr, startMs, response, result) -> { };

    /**
     * @param brokerAddr the master the attempt went to
     * @param startMs    when the attempt started
     * @param response   the broker's answer, whose ext fields carry MSG_REGION and TRACE_ON
     */
    void answered(PreparedSend send, String brokerAddr, long startMs, RemotingCommand response, SendResult result);
}
