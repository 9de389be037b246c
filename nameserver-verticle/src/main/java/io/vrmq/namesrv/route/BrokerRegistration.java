package io.vrmq.namesrv.route;

import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.List;

/** One REGISTER_BROKER request, decoded. {@code heartbeatTimeoutMs} is 0 when the broker sent none. */
public record BrokerRegistration(String clusterName, String brokerAddr, String brokerName, long brokerId,
                                 String haServerAddr, String zoneName, long heartbeatTimeoutMs,
                                 boolean enableActingMaster, TopicConfigSerializeWrapper topics,
                                 List<String> filterServerList, RemotingConnection connection) {
}
