package io.vrmq.controller.decision;

/**
 * What a replica's last BROKER_HEARTBEAT (904) said, as this controller node recorded it. Immutable.
 *
 * @param epoch            the last epoch in the broker's epoch file (-1 when not sent)
 * @param maxOffset        its commit log max offset (-1 when not sent)
 * @param confirmOffset    its confirm offset (-1 when not sent)
 * @param electionPriority lower wins a tie ({@link Integer#MAX_VALUE} when not sent)
 */
public record ReplicaHeartbeat(String brokerName, long brokerId, String brokerAddr, long lastUpdateMs,
                               long heartbeatTimeoutMs, int epoch, long maxOffset, long confirmOffset,
                               int electionPriority) {

    public boolean isAliveAt(long nowMs) {
        return lastUpdateMs + heartbeatTimeoutMs >= nowMs;
    }
}
