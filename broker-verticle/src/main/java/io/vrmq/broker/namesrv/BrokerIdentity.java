package io.vrmq.broker.namesrv;

/** Who this broker is to NameServers and clients; fixed once its ports are bound. */
public record BrokerIdentity(String clusterName, String brokerName, long brokerId, String brokerAddr,
                             String haServerAddr) {
}
