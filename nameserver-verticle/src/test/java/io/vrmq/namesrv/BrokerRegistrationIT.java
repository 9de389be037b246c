package io.vrmq.namesrv;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicConfig;
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
import java.util.concurrent.TimeUnit;

import static io.vrmq.namesrv.BrokerRequests.CLUSTER;
import static io.vrmq.namesrv.BrokerRequests.JSON;
import static io.vrmq.namesrv.BrokerRequests.register;
import static io.vrmq.namesrv.BrokerRequests.routeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Brokers registering with the NameServer over real sockets: REGISTER_BROKER in its plain and compressed
 * forms, UNREGISTER_BROKER and QUERY_DATA_VERSION, seen through the routes clients get back.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class BrokerRegistrationIT {
    private static final String BROKER_A = "broker-a";
    private static final String MASTER_ADDR = "127.0.0.1:10911";
    private static final String SLAVE_ADDR = "127.0.0.1:10921";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_700_000_000_000L);
    private static final DataVersion V2 = new DataVersion(2, 0, 1_700_000_000_500L);
    private static final TopicConfig TOPIC_T = TopicConfig.of("T", 4, Permission.READ_WRITE);

    @Test
    void aRegisteredBrokersTopicIsRoutedToIt(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(), register(BROKER_A, 1, SLAVE_ADDR, V1)))
                .compose(registered -> client.invoke(server.address(), routeOf("T"))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                TopicRouteData route = JSON.decode(response.body(), TopicRouteData.class);
                assertEquals(List.of(new QueueData(BROKER_A, 4, 4, Permission.READ_WRITE, 0)), route.queueDatas());
                assertEquals(1, route.brokerDatas().size());
                assertEquals(CLUSTER, route.brokerDatas().get(0).cluster());
                assertEquals(Map.of(0L, MASTER_ADDR, 1L, SLAVE_ADDR), route.brokerDatas().get(0).brokerAddrs());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aSlavesRegistrationIsAnsweredWithItsMasterAndHaAddress(Vertx vertx, VertxTestContext test,
                                                                @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(), register(BROKER_A, 1, SLAVE_ADDR, V1))))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                assertEquals(MASTER_ADDR, response.ext("masterAddr"));
                assertEquals("127.0.0.1:10912", response.ext("haServerAddr"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aCompressedRegisterBodyIsReadEvenWhenTheHeaderSaysUncompressed(Vertx vertx, VertxTestContext test,
                                                                         @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        Buffer body = BrokerRequests.compressedBody(V1, TOPIC_T, new TopicConfig("ORDERED", 2, 8, Permission.READ,
            TopicConfig.SINGLE_TAG, 0, false, Map.of()));
        Map<String, String> header = BrokerRequests.brokerHeader(CLUSTER, BROKER_A, 0, MASTER_ADDR);
        header.put("compressed", "false");
        header.put("bodyCrc32", Long.toString(BrokerRequests.crc32(body)));
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.REGISTER_BROKER, header, body))
                .compose(registered -> {
                    assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());
                    return client.invoke(server.address(), routeOf("ORDERED"));
                }))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                TopicRouteData route = JSON.decode(response.body(), TopicRouteData.class);
                assertEquals(List.of(new QueueData(BROKER_A, 2, 8, Permission.READ, 0)), route.queueDatas());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aRegisterBodyWhoseCrc32DoesNotMatchIsRefused(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingCommand valid = register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T);
        Map<String, String> header = valid.extFieldsCopy();
        header.put("bodyCrc32", Long.toString((BrokerRequests.crc32(valid.body()) + 1) & 0x7FFFFFFFL));
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(),
                    RemotingCommand.request(RequestCode.REGISTER_BROKER, header, valid.body()))
                .compose(refused -> {
                    assertEquals(ResponseCode.SYSTEM_ERROR, refused.code());
                    assertEquals("crc32 not match", refused.remark());
                    return client.invoke(server.address(), routeOf("T"));
                }))
            .map(route -> {
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, route.code());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void unregisterBrokerDropsItsRoutes(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(),
                    BrokerRequests.unregister(BROKER_A, 0, MASTER_ADDR)))
                .compose(unregistered -> {
                    assertEquals(ResponseCode.SUCCESS, unregistered.code(), unregistered.remark());
                    return client.invoke(server.address(), routeOf("T"));
                }))
            .map(route -> {
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, route.code());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void queryDataVersionSaysUnchangedForTheRegisteredVersionAndChangedForAnother(Vertx vertx, VertxTestContext test,
                                                                                  @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T))
                .compose(registered -> client.invoke(server.address(), queryDataVersion(V1)))
                .compose(same -> {
                    assertEquals(ResponseCode.SUCCESS, same.code(), same.remark());
                    assertEquals("false", same.ext("changed"));
                    assertEquals(V1, JSON.decode(same.body(), DataVersion.class));
                    return client.invoke(server.address(), queryDataVersion(V2));
                }))
            .map(other -> {
                assertEquals(ResponseCode.SUCCESS, other.code(), other.remark());
                assertEquals("true", other.ext("changed"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static RemotingCommand queryDataVersion(DataVersion version) {
        return RemotingCommand.request(RequestCode.QUERY_DATA_VERSION,
            BrokerRequests.brokerHeader(CLUSTER, BROKER_A, 0, MASTER_ADDR), JSON.encode(version));
    }
}
