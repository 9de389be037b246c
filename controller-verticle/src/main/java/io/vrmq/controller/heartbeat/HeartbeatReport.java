package io.vrmq.controller.heartbeat;

/**
 * One BROKER_HEARTBEAT (904) as decoded, the optional fields already defaulted as RocketMQ does: epoch, maxOffset and
 * confirmOffset -1, electionPriority {@link Integer#MAX_VALUE}, heartbeatTimeoutMs the configured default.
 */
public record HeartbeatReport(BrokerIdentity identity, String brokerAddr, int epoch, long maxOffset,
                              long confirmOffset, long heartbeatTimeoutMs, int electionPriority) {
}
