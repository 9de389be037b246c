package io.vrmq.compat.support;

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
import org.apache.rocketmq.remoting.protocol.header.namesrv.UnRegisterBrokerRequestHeader;

/**
 * A broker that exists only as the REGISTER_BROKER request the official remoting client sends for it, built the way
 * the 5.5.0 broker's {@code BrokerOuterAPI} builds it (plain JSON body, bodyCrc32, brokerId 0). After registering it
 * stays silent on its open connection, like a hung broker: no periodic registration, no heartbeat. Nothing listens
 * at its broker address. Test thread only.
 *
 * <p>Like a real broker it also registers its cluster name and broker name as topics. That matters beyond realism:
 * Apache's NameServer takes a registration with exactly one topic from an unknown broker for an incremental one and
 * refuses it ("has not registered", code 1).
 */
public final class HandRegisteredBroker implements AutoCloseable {

    private static final long REQUEST_TIMEOUT_MS = 5_000;
    private static final int QUEUE_COUNT = 4;
    private static final int PERM_READ_WRITE = 6;
    /** Inherit, read and write: what the broker gives its cluster-name and broker-name topics. */
    private static final int PERM_INHERIT_READ_WRITE = 7;

    private final NettyRemotingClient client = OfficialClients.remotingClient();
    private final String namesrvAddr;
    private final String clusterName;
    private final String brokerName;
    private final String brokerAddr;
    private final DataVersion dataVersion = new DataVersion();

    private HandRegisteredBroker(String namesrvAddr, String clusterName, String brokerName) {
        this.namesrvAddr = namesrvAddr;
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.brokerAddr = "127.0.0.1:" + FreePorts.any();
    }

    /** Registers a master holding {@code topics} (4 read and write queues each) and returns once it is accepted. */
    public static HandRegisteredBroker register(String namesrvAddr, String clusterName, String brokerName,
                                                List<String> topics) throws Exception {
        HandRegisteredBroker broker = new HandRegisteredBroker(namesrvAddr, clusterName, brokerName);
        try {
            broker.sendRegistration(topics);
        } catch (Exception | AssertionError e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    /** Sends UNREGISTER_BROKER (104) on the same, still open, connection. */
    public void unregister() throws Exception {
        UnRegisterBrokerRequestHeader header = new UnRegisterBrokerRequestHeader();
        header.setBrokerName(brokerName);
        header.setBrokerAddr(brokerAddr);
        header.setClusterName(clusterName);
        header.setBrokerId(0L);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.UNREGISTER_BROKER, header);
        expectSuccess(client.invokeSync(namesrvAddr, request, REQUEST_TIMEOUT_MS), "UNREGISTER_BROKER");
    }

    public String brokerName() {
        return brokerName;
    }

    public String brokerAddr() {
        return brokerAddr;
    }

    public String clusterName() {
        return clusterName;
    }

    /** The topic-config data version it registered with. */
    public DataVersion dataVersion() {
        return dataVersion;
    }

    /** Closes the connection without unregistering, as a crashed broker's kernel would. */
    @Override
    public void close() {
        client.shutdown();
    }

    private void sendRegistration(List<String> topics) throws Exception {
        ConcurrentMap<String, TopicConfig> topicConfigTable = new ConcurrentHashMap<>();
        for (String ownName : List.of(clusterName, brokerName)) {
            topicConfigTable.put(ownName, new TopicConfig(ownName, 1, 1, PERM_INHERIT_READ_WRITE));
        }
        for (String topic : topics) {
            topicConfigTable.put(topic, new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT, PERM_READ_WRITE));
        }
        TopicConfigAndMappingSerializeWrapper topicConfigs = new TopicConfigAndMappingSerializeWrapper();
        topicConfigs.setTopicConfigTable(topicConfigTable);
        topicConfigs.setDataVersion(dataVersion);
        RegisterBrokerBody body = new RegisterBrokerBody();
        body.setTopicConfigSerializeWrapper(topicConfigs);
        body.setFilterServerList(List.of());
        byte[] encodedBody = body.encode(false);

        RegisterBrokerRequestHeader header = new RegisterBrokerRequestHeader();
        header.setBrokerName(brokerName);
        header.setBrokerAddr(brokerAddr);
        header.setClusterName(clusterName);
        header.setHaServerAddr("127.0.0.1:" + FreePorts.any());
        header.setBrokerId(0L);
        header.setCompressed(false);
        header.setEnableActingMaster(false);
        header.setBodyCrc32(UtilAll.crc32(encodedBody));
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, header);
        request.setBody(encodedBody);
        expectSuccess(client.invokeSync(namesrvAddr, request, REQUEST_TIMEOUT_MS), "REGISTER_BROKER");
    }

    private static void expectSuccess(RemotingCommand response, String what) {
        if (response.getCode() != ResponseCode.SUCCESS) {
            throw new AssertionError(what + " answered with code " + response.getCode() + ", remark "
                + response.getRemark());
        }
    }
}
