package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.HandRegisteredBroker;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.TopicList;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the official admin ({@code DefaultMQAdminExt}, the engine of mqadmin) asks a NameServer in normal use, one
 * call per test. An unsupported request fails its test with the official client's exception carrying response code
 * 3. Broker-side admin calls (queryTopicConsumeByWho, ...) do not touch the NameServer and are not here.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminCommandsIT {

    private static final String CLUSTER = "CompatAdminCluster";
    private static final String BROKER = "broker-admin";
    private static final String TOPIC = "CompatAdminTopic";
    private static final String TOPIC_TO_DELETE = "CompatAdminTopicToDelete";
    private static final String TOPIC_TO_DELETE_IN_CLUSTER = "CompatAdminTopicToDeleteInCluster";
    private static final long API_TIMEOUT_MS = 5_000;
    private static final int PERM_READ = 4;
    private static final int PERM_READ_WRITE = 6;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static DefaultMQAdminExt admin;
    private static MQClientAPIImpl clientApi;
    private static NettyRemotingClient remotingClient;

    @BeforeAll
    static void startNameServerWithARegisteredBroker() throws Exception {
        nameServer = resources.nameServer(dir, NameServerSettings.defaults(dir));
        resources.closeClientLater(HandRegisteredBroker.register(nameServer.address(), CLUSTER, BROKER,
            List.of(TOPIC, TOPIC_TO_DELETE, TOPIC_TO_DELETE_IN_CLUSTER)));
        admin = OfficialClients.admin(nameServer.address());
        resources.closeClientLater(admin::shutdown);
        clientApi = admin.getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
        remotingClient = OfficialClients.remotingClient();
        resources.closeClientLater(remotingClient::shutdown);
    }

    @Test
    void fetchAllTopicListAnswersTheRegisteredTopics() throws Exception {
        assertTrue(admin.fetchAllTopicList().getTopicList().containsAll(Set.of(TOPIC, TOPIC_TO_DELETE)));
    }

    @Test
    void fetchTopicsByClusterAnswersTheTopicsOfTheCluster() throws Exception {
        assertTrue(admin.fetchTopicsByCLuster(CLUSTER).getTopicList().contains(TOPIC));
    }

    @Test
    void getTopicClusterListAnswersTheClusterOfATopic() throws Exception {
        assertEquals(Set.of(CLUSTER), admin.getTopicClusterList(TOPIC));
    }

    @Test
    void examineTopicRouteInfoAnswersTheBrokerOfATopic() throws Exception {
        assertEquals(BROKER, admin.examineTopicRouteInfo(TOPIC).getQueueDatas().get(0).getBrokerName());
    }

    @Test
    void deleteTopicInNameServerRemovesTheRoute() throws Exception {
        admin.deleteTopicInNameServer(Set.of(nameServer.address()), TOPIC_TO_DELETE);

        assertTopicNotExist(TOPIC_TO_DELETE);
    }

    @Test
    void deleteTopicInNameServerForOneClusterRemovesTheRoute() throws Exception {
        admin.deleteTopicInNameServer(Set.of(nameServer.address()), CLUSTER, TOPIC_TO_DELETE_IN_CLUSTER);

        assertTopicNotExist(TOPIC_TO_DELETE_IN_CLUSTER);
    }

    @Test
    void wipeAndAddWritePermOfBrokerChangeThePermOfItsQueues() throws Exception {
        int wipedTopicCount = admin.wipeWritePermOfBroker(nameServer.address(), BROKER);
        int readPerm = admin.examineTopicRouteInfo(TOPIC).getQueueDatas().get(0).getPerm();
        int addedTopicCount = admin.addWritePermOfBroker(nameServer.address(), BROKER);
        int readWritePerm = admin.examineTopicRouteInfo(TOPIC).getQueueDatas().get(0).getPerm();

        assertTrue(wipedTopicCount >= 1, "wiped " + wipedTopicCount);
        assertEquals(PERM_READ, readPerm, "perm after wipeWritePermOfBroker");
        assertTrue(addedTopicCount >= 1, "added " + addedTopicCount);
        assertEquals(PERM_READ_WRITE, readWritePerm, "perm after addWritePermOfBroker");
    }

    @Test
    void getNameServerConfigAnswersItsProperties() throws Exception {
        Map<String, Properties> configs = admin.getNameServerConfig(List.of(nameServer.address()));

        Properties config = configs.get(nameServer.address());
        assertNotNull(config, "config of " + nameServer.address() + " in " + configs);
        assertEquals(Integer.toString(nameServer.listenPort()), config.getProperty("listenPort"), config.toString());
    }

    @Test
    void updateNameServerConfigChangesWhatGetNameServerConfigAnswers() throws Exception {
        Properties update = new Properties();
        update.setProperty("scanNotActiveBrokerInterval", "7000");

        admin.updateNameServerConfig(update, List.of(nameServer.address()));

        Properties config = admin.getNameServerConfig(List.of(nameServer.address())).get(nameServer.address());
        assertEquals("7000", config.getProperty("scanNotActiveBrokerInterval"), config.toString());
    }

    /** Sent raw: the client's getSystemTopicList goes on to ask the broker address in the answer, and none listens. */
    @Test
    void getSystemTopicListAnswersClusterAndBrokerNames() throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS,
            null);
        RemotingCommand response = remotingClient.invokeSync(nameServer.address(), request, API_TIMEOUT_MS);

        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.toString());
        TopicList systemTopics = TopicList.decode(response.getBody(), TopicList.class);
        assertTrue(systemTopics.getTopicList().containsAll(Set.of(CLUSTER, BROKER)), systemTopics.getTopicList()
            .toString());
    }

    @Test
    void getUnitTopicListIsAnswered() throws Exception {
        assertNotNull(clientApi.getUnitTopicList(false, API_TIMEOUT_MS).getTopicList());
    }

    @Test
    void getHasUnitSubTopicListIsAnswered() throws Exception {
        assertNotNull(clientApi.getHasUnitSubTopicList(false, API_TIMEOUT_MS).getTopicList());
    }

    @Test
    void getHasUnitSubUnUnitTopicListIsAnswered() throws Exception {
        assertNotNull(clientApi.getHasUnitSubUnUnitTopicList(false, API_TIMEOUT_MS).getTopicList());
    }

    private static void assertTopicNotExist(String topic) {
        MQClientException failure = assertThrows(MQClientException.class, () -> admin.examineTopicRouteInfo(topic));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, failure.getResponseCode(), failure.toString());
    }
}
