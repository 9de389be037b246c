package io.vrmq.namesrv;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.ClusterInfo;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicList;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.vrmq.namesrv.BrokerRequests.CLUSTER;
import static io.vrmq.namesrv.BrokerRequests.JSON;
import static io.vrmq.namesrv.BrokerRequests.register;
import static io.vrmq.namesrv.BrokerRequests.routeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What clients and admin tools ask and change over real sockets: cluster info, topic lists, member groups,
 * topic deletion and registration, and write permissions.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class RouteAdminCommandsIT {
    private static final String BROKER_A = "broker-a";
    private static final String BROKER_B = "broker-b";
    private static final String MASTER_ADDR = "127.0.0.1:10911";
    private static final String SLAVE_ADDR = "127.0.0.1:10921";
    private static final String OTHER_ADDR = "127.0.0.1:20911";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_700_000_000_000L);
    private static final TopicConfig TOPIC_T = TopicConfig.of("T", 4, Permission.READ_WRITE);

    @Test
    void clusterInfoListsEveryGroupAndCluster(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> registerTwoBrokers(client, server)
                .compose(registered -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                ClusterInfo info = JSON.decode(response.body(), ClusterInfo.class);
                assertEquals(Map.of(CLUSTER, Set.of(BROKER_A, BROKER_B)), info.clusterAddrTable());
                assertEquals(Map.of(0L, MASTER_ADDR), info.brokerAddrTable().get(BROKER_A).brokerAddrs());
                assertEquals(Map.of(0L, OTHER_ADDR), info.brokerAddrTable().get(BROKER_B).brokerAddrs());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theAllTopicListNamesEveryRegisteredTopic(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> registerTwoBrokers(client, server)
                .compose(registered -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                assertEquals(Set.of("T", "ONLY_B"), JSON.decode(response.body(), TopicList.class).topicList());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void topicsByClusterNamesTheTopicsOfThatClustersBrokers(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        Map<String, String> header = BrokerRequests.brokerHeader("other-cluster", "broker-c", 0, "127.0.0.1:30911");
        Buffer body = register("broker-c", 0, "127.0.0.1:30911", V1, TopicConfig.of("ONLY_C", 1, 6)).body();
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> registerTwoBrokers(client, server)
                .compose(registered -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.REGISTER_BROKER, header, body)))
                .compose(registered -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.GET_TOPICS_BY_CLUSTER, Map.of("cluster", CLUSTER), null))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                assertEquals(Set.of("T", "ONLY_B"), JSON.decode(response.body(), TopicList.class).topicList());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void deleteTopicInNamesrvRemovesItsRoute(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> registerTwoBrokers(client, server)
                .compose(registered -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_NAMESRV, Map.of("topic", "T"), null)))
                .compose(deleted -> {
                    assertEquals(ResponseCode.SUCCESS, deleted.code(), deleted.remark());
                    return client.invoke(server.address(), routeOf("T"));
                }))
            .map(route -> {
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, route.code());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void wipeAndAddWritePermChangeTheBrokersQueuePermissionsAndCountTopics(Vertx vertx, VertxTestContext test,
                                                                            @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        Map<String, String> brokerB = Map.of("brokerName", BROKER_B);
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> registerTwoBrokers(client, server)
                .compose(registered -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.WIPE_WRITE_PERM_OF_BROKER, brokerB, null)))
                .compose(wiped -> {
                    assertEquals(ResponseCode.SUCCESS, wiped.code(), wiped.remark());
                    assertEquals("2", wiped.ext("wipeTopicCount"));
                    return client.invoke(server.address(), routeOf("ONLY_B"));
                })
                .compose(route -> {
                    assertEquals(Permission.READ, permOf(route, BROKER_B));
                    return client.invoke(server.address(),
                        RemotingCommand.request(RequestCode.ADD_WRITE_PERM_OF_BROKER, brokerB, null));
                })
                .compose(added -> {
                    assertEquals(ResponseCode.SUCCESS, added.code(), added.remark());
                    assertEquals("2", added.ext("addTopicCount"));
                    return client.invoke(server.address(), routeOf("T"));
                }))
            .map(route -> {
                assertEquals(Permission.READ_WRITE, permOf(route, BROKER_B));
                assertEquals(Permission.READ_WRITE, permOf(route, BROKER_A));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void registerTopicInNamesrvAddsQueueDataForAKnownBroker(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TopicRouteData queues = new TopicRouteData(null,
            List.of(new QueueData(BROKER_A, 2, 2, Permission.READ_WRITE, 0)), List.of(), Map.of());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(), RemotingCommand.request(
                    RequestCode.REGISTER_TOPIC_IN_NAMESRV, Map.of("topic", "NEW"), JSON.encode(queues))))
                .compose(added -> {
                    assertEquals(ResponseCode.SUCCESS, added.code(), added.remark());
                    return client.invoke(server.address(), routeOf("NEW"));
                }))
            .map(route -> {
                assertEquals(ResponseCode.SUCCESS, route.code(), route.remark());
                assertEquals(queues.queueDatas(), JSON.decode(route.body(), TopicRouteData.class).queueDatas());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theSystemTopicListNamesClustersAndBrokersWithAMasterAddress(Vertx vertx, VertxTestContext test,
                                                                    @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                TopicList system = JSON.decode(response.body(), TopicList.class);
                assertEquals(Set.of(CLUSTER, BROKER_A), system.topicList());
                assertEquals(MASTER_ADDR, system.brokerAddr());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theBrokerMemberGroupListsTheGroupsAddresses(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(), register(BROKER_A, 1, SLAVE_ADDR, V1)))
                .compose(registered -> client.invoke(server.address(), RemotingCommand.request(
                    RequestCode.GET_BROKER_MEMBER_GROUP, Map.of("clusterName", CLUSTER, "brokerName", BROKER_A),
                    null))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                JsonObject group = new JsonObject(response.body()).getJsonObject("brokerMemberGroup");
                assertEquals(CLUSTER, group.getString("cluster"));
                assertEquals(BROKER_A, group.getString("brokerName"));
                assertEquals(new JsonObject().put("0", MASTER_ADDR).put("1", SLAVE_ADDR),
                    group.getJsonObject("brokerAddrs"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<RemotingCommand> registerTwoBrokers(RemotingClient client, TestNameServer server) {
        return client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
            .compose(registered -> client.invoke(server.address(), register(BROKER_B, 0, OTHER_ADDR, V1, TOPIC_T,
                TopicConfig.of("ONLY_B", 2, Permission.READ_WRITE))));
    }

    private static int permOf(RemotingCommand routeResponse, String brokerName) {
        assertEquals(ResponseCode.SUCCESS, routeResponse.code(), routeResponse.remark());
        return JSON.decode(routeResponse.body(), TopicRouteData.class).queueDatas().stream()
            .filter(queues -> queues.brokerName().equals(brokerName))
            .findFirst().orElseThrow().perm();
    }
}
