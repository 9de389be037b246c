package io.vrmq.load;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.header.namesrv.RegisterBrokerRequestHeader;

/**
 * Registers a broker holding one topic with a NameServer, the way the 5.5.0 broker's {@code BrokerOuterAPI} does
 * (REGISTER_BROKER, plain JSON body with crc32), so that every NameServer benchmarked holds the same route. No broker
 * runs at the registered address: the benchmark only reads routes. The registration lives as long as the client's
 * connection (and under the NameServer's 120 s silence limit). Called once, from main.
 */
final class BrokerRegistration {

    static final String CLUSTER_NAME = "BenchCluster";
    private static final int QUEUE_COUNT = 8;
    private static final int PERM_READ_WRITE = 6;
    private static final int PERM_INHERIT_READ_WRITE = 7;
    private static final long REQUEST_TIMEOUT_MS = 5_000;
    /** Nothing listens there; any address the NameServer can store will do. */
    private static final String BROKER_ADDRESS = "127.0.0.1:10911";

    private BrokerRegistration() {
    }

    static void register(NettyRemotingClient client, String namesrvAddr, String brokerName, String topic)
        throws Exception {
        ConcurrentMap<String, TopicConfig> topicConfigTable = new ConcurrentHashMap<>();
        topicConfigTable.put(topic, new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT, PERM_READ_WRITE));
        // A real broker also registers its cluster and broker names as topics; Apache's NameServer refuses a first
        // registration that carries exactly one topic.
        for (String ownName : List.of(CLUSTER_NAME, brokerName)) {
            topicConfigTable.put(ownName, new TopicConfig(ownName, 1, 1, PERM_INHERIT_READ_WRITE));
        }
        TopicConfigAndMappingSerializeWrapper topicConfigs = new TopicConfigAndMappingSerializeWrapper();
        topicConfigs.setTopicConfigTable(topicConfigTable);
        topicConfigs.setDataVersion(new DataVersion());
        RegisterBrokerBody body = new RegisterBrokerBody();
        body.setTopicConfigSerializeWrapper(topicConfigs);
        body.setFilterServerList(List.of());
        byte[] encodedBody = body.encode(false);

        RegisterBrokerRequestHeader header = new RegisterBrokerRequestHeader();
        header.setBrokerName(brokerName);
        header.setBrokerAddr(BROKER_ADDRESS);
        header.setClusterName(CLUSTER_NAME);
        header.setHaServerAddr("127.0.0.1:10912");
        header.setBrokerId(0L);
        header.setCompressed(false);
        header.setEnableActingMaster(false);
        header.setBodyCrc32(UtilAll.crc32(encodedBody));
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, header);
        request.setBody(encodedBody);
        RemotingCommand response = client.invokeSync(namesrvAddr, request, REQUEST_TIMEOUT_MS);
        if (response.getCode() != ResponseCode.SUCCESS) {
            throw new IllegalStateException("REGISTER_BROKER to " + namesrvAddr + " answered " + response.getCode()
                + ": " + response.getRemark());
        }
    }
}
