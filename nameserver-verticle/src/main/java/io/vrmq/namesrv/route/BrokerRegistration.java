package io.vrmq.namesrv.route;

import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.List;

/** One REGISTER_BROKER request, decoded. {@code heartbeatTimeoutMs} is 0 when the broker sent none. */
public record BrokerRegistration(String clusterName, String brokerAddr, String brokerName, long brokerId,
                                 String haServerAddr, String zoneName, long heartbeatTimeoutMs,
                                 boolean enableActingMaster, TopicConfigSerializeWrapper topics,
                                 List<String> filterServerList, RemotingConnection connection) {
    /** The same broker with its body's parts (the header is read on the event loop, the body on a worker). */
    public BrokerRegistration with(TopicConfigSerializeWrapper bodyTopics, List<String> bodyFilterServers) {
        return new BrokerRegistration(clusterName, brokerAddr, brokerName, brokerId, haServerAddr, zoneName,
            heartbeatTimeoutMs, enableActingMaster, bodyTopics, bodyFilterServers, connection);
    }
}
