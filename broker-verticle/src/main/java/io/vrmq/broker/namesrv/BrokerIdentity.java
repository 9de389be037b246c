package io.vrmq.broker.namesrv;

/**
 * Who this broker is to NameServers and clients; fixed once its ports are bound. The id it registers with is part of
 * its role ({@link io.vrmq.broker.role.RoleState}), which controller mode changes at run time.
 */
public record BrokerIdentity(String clusterName, String brokerName, String brokerAddr, String haServerAddr) {
}
