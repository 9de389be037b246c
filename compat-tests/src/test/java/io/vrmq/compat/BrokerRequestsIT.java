package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.HandRegisteredBroker;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.BrokerMemberGroup;
import org.apache.rocketmq.remoting.protocol.body.GetBrokerMemberGroupResponseBody;
import org.apache.rocketmq.remoting.protocol.header.GetBrokerMemberGroupRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.BrokerHeartbeatRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.QueryDataVersionRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.QueryDataVersionResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.RegisterTopicRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The requests a 5.5.0 broker sends a NameServer besides REGISTER_BROKER, built as its {@code BrokerOuterAPI}
 * builds them and sent by the official remoting client: QUERY_DATA_VERSION (322, before a registration when
 * forceRegister is off), REGISTER_TOPIC_IN_NAMESRV (217, on a topic change with enableSingleTopicRegister),
 * GET_BROKER_MEMBER_GROUP (901, with enableSlaveActingMaster) and BROKER_HEARTBEAT (904, lightweight heartbeat;
 * the broker sends it oneway, sent here synchronously to see the answer).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BrokerRequestsIT {

    private static final String CLUSTER = "CompatBrokerRequestsCluster";
    private static final String BROKER = "broker-requests";
    private static final long REQUEST_TIMEOUT_MS = 5_000;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static NettyRemotingClient client;

    @BeforeAll
    static void startNameServerAndClient() {
        nameServer = resources.nameServer(dir, NameServerSettings.defaults(dir));
        client = OfficialClients.remotingClient();
        resources.closeClientLater(client::shutdown);
    }

    @Test
    void queryDataVersionAnswersUnchangedForTheRegisteredVersionAndChangedForANewerOne() throws Exception {
        HandRegisteredBroker registered = register("broker-data-version", "CompatTopicDataVersion");
        DataVersion newer = new DataVersion();
        newer.assignNewOne(registered.dataVersion());
        newer.nextVersion();

        assertEquals(Boolean.FALSE, queryDataVersion(registered, registered.dataVersion()), "same version");
        assertEquals(Boolean.TRUE, queryDataVersion(registered, newer), "newer version");
    }

    @Test
    void registerTopicInNamesrvAddsARouteForAnAlreadyRegisteredBroker() throws Exception {
        HandRegisteredBroker registered = register("broker-single-topic", "CompatTopicFirst");
        String topic = "CompatTopicRegisteredAlone";
        QueueData queueData = new QueueData();
        queueData.setBrokerName(registered.brokerName());
        queueData.setPerm(PermName.PERM_READ | PermName.PERM_WRITE);
        queueData.setReadQueueNums(2);
        queueData.setWriteQueueNums(2);
        queueData.setTopicSysFlag(0);
        TopicRouteData body = new TopicRouteData();
        body.setQueueDatas(List.of(queueData));
        RegisterTopicRequestHeader header = new RegisterTopicRequestHeader();
        header.setTopic(topic);

        RemotingCommand response = invoke(RequestCode.REGISTER_TOPIC_IN_NAMESRV, header, body.encode());

        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.toString());
        DefaultMQAdminExt admin = OfficialClients.admin(nameServer.address());
        resources.closeClientLater(admin::shutdown);
        QueueData routed = admin.examineTopicRouteInfo(topic).getQueueDatas().get(0);
        assertEquals(registered.brokerName(), routed.getBrokerName());
        assertEquals(2, routed.getWriteQueueNums());
    }

    @Test
    void getBrokerMemberGroupAnswersTheAddressesOfTheGroup() throws Exception {
        HandRegisteredBroker registered = register("broker-member-group", "CompatTopicMemberGroup");
        GetBrokerMemberGroupRequestHeader header = new GetBrokerMemberGroupRequestHeader();
        header.setClusterName(registered.clusterName());
        header.setBrokerName(registered.brokerName());

        RemotingCommand response = invoke(RequestCode.GET_BROKER_MEMBER_GROUP, header, null);

        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.toString());
        BrokerMemberGroup group = GetBrokerMemberGroupResponseBody.decode(response.getBody(),
            GetBrokerMemberGroupResponseBody.class).getBrokerMemberGroup();
        assertNotNull(group, "member group in " + response);
        assertEquals(Map.of(0L, registered.brokerAddr()), group.getBrokerAddrs());
    }

    @Test
    void brokerHeartbeatIsAnsweredWithSuccess() throws Exception {
        HandRegisteredBroker registered = register("broker-heartbeat", "CompatTopicHeartbeat");
        BrokerHeartbeatRequestHeader header = new BrokerHeartbeatRequestHeader();
        header.setClusterName(registered.clusterName());
        header.setBrokerAddr(registered.brokerAddr());
        header.setBrokerName(registered.brokerName());

        RemotingCommand response = invoke(RequestCode.BROKER_HEARTBEAT, header, null);

        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.toString());
    }

    private static HandRegisteredBroker register(String brokerName, String topic) throws Exception {
        return resources.closeClientLater(HandRegisteredBroker.register(nameServer.address(), CLUSTER, brokerName,
            List.of(topic)));
    }

    private static Boolean queryDataVersion(HandRegisteredBroker registered, DataVersion dataVersion)
        throws Exception {
        QueryDataVersionRequestHeader header = new QueryDataVersionRequestHeader();
        header.setBrokerAddr(registered.brokerAddr());
        header.setBrokerName(registered.brokerName());
        header.setClusterName(registered.clusterName());
        header.setBrokerId(0L);
        RemotingCommand response = invoke(RequestCode.QUERY_DATA_VERSION, header, dataVersion.encode());
        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.toString());
        QueryDataVersionResponseHeader responseHeader =
            response.decodeCommandCustomHeader(QueryDataVersionResponseHeader.class);
        return responseHeader.getChanged();
    }

    private static RemotingCommand invoke(int code, CommandCustomHeader header, byte[] body) throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(code, header);
        request.setBody(body);
        return client.invokeSync(nameServer.address(), request, REQUEST_TIMEOUT_MS);
    }
}
