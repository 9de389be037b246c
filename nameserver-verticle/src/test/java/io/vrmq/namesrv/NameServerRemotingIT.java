package io.vrmq.namesrv;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.parsetools.RecordParser;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.protocol.CommandCodec;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.protocol.SerializeType;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.vrmq.namesrv.BrokerRequests.JSON;
import static io.vrmq.namesrv.BrokerRequests.register;
import static io.vrmq.namesrv.BrokerRequests.routeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The NameServer as a remoting server: dispatch of unknown codes, bad headers, oneway requests and binary
 * headers, GET_NAMESRV_CONFIG, the connection limit, and a start that fails half-way.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class NameServerRemotingIT {
    private static final String BROKER_A = "broker-a";
    private static final String MASTER_ADDR = "127.0.0.1:10911";
    private static final DataVersion V1 = new DataVersion(1, 0, 1_700_000_000_000L);
    private static final TopicConfig TOPIC_T = TopicConfig.of("T", 4, Permission.READ_WRITE);

    @Test
    void anUnknownTopicIsAnsweredWithTopicNotExist(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), routeOf("NO_SUCH_TOPIC")))
            .map(response -> {
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, response.code());
                assertTrue(response.remark().contains("NO_SUCH_TOPIC"), response.remark());
                assertNull(response.body());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void getNamesrvConfigAnswersTheSettingsAsPropertiesText(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        JsonObject config = TestNameServer.config(dir);
        TestNameServer.start(vertx, config)
            .compose(server -> client.invoke(server.address(),
                RemotingCommand.request(RequestCode.GET_NAMESRV_CONFIG)))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
                List<String> lines = List.of(response.body().toString().split("\n"));
                assertTrue(lines.stream().anyMatch(line -> line.startsWith("listenPort=")), lines.toString());
                assertTrue(lines.contains("brokerChannelExpiredTime=120000"), lines.toString());
                assertTrue(lines.contains("kvConfigPath=" + config.getString("kvConfigPath")), lines.toString());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void anUnknownRequestCodeIsAnsweredRequestCodeNotSupportedNamingIt(Vertx vertx, VertxTestContext test,
                                                                       @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(9_999))
                .compose(refused -> {
                    assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, refused.code());
                    assertTrue(refused.remark().contains("9999"), refused.remark());
                    return client.invoke(server.address(),
                        RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER));
                }))
            .map(stillServed -> {
                assertEquals(ResponseCode.SUCCESS, stillServed.code(), stillServed.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aRequestMissingARequiredHeaderFieldIsAnsweredSystemErrorNamingIt(Vertx vertx, VertxTestContext test,
                                                                          @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(),
                RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC)))
            .map(refused -> {
                assertEquals(ResponseCode.SYSTEM_ERROR, refused.code());
                assertTrue(refused.remark().contains("topic"), refused.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aRequestWithABinaryHeaderIsAnsweredWithABinaryHeader(Vertx vertx, VertxTestContext test,
                                                              @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> client.invoke(server.address(), register(BROKER_A, 0, MASTER_ADDR, V1, TOPIC_T)
                    .withSerializeType(SerializeType.ROCKETMQ))
                .compose(registered -> {
                    assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());
                    return client.invoke(server.address(), routeOf("T").withSerializeType(SerializeType.ROCKETMQ));
                }))
            .map(route -> {
                assertEquals(ResponseCode.SUCCESS, route.code(), route.remark());
                assertEquals(SerializeType.ROCKETMQ, route.serializeType());
                assertEquals(1, JSON.decode(route.body(), TopicRouteData.class).brokerDatas().size());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aOnewayRequestGetsNoReply(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        NetClient raw = vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000));
        RemotingCommand oneway = routeOf("T").withOpaque(1).asOneway();
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER)
            .withOpaque(2);
        Buffer bothFrames = CommandCodec.encode(oneway).appendBuffer(CommandCodec.encode(request));
        TestNameServer.start(vertx, TestNameServer.config(dir))
            .compose(server -> raw.connect(server.remotingPort(), TestNameServer.HOST))
            .compose(socket -> {
                Promise<RemotingCommand> firstReply = Promise.promise();
                RecordParser frames = RecordParser.newFixed(4);
                frames.handler(length -> {
                    frames.fixedSizeMode(length.getInt(0));
                    frames.handler(frame -> firstReply.tryComplete(CommandCodec.decode(frame, 1 << 20)));
                });
                socket.handler(frames);
                return socket.write(bothFrames).compose(written -> firstReply.future());
            })
            .map(reply -> {
                assertEquals(2, reply.opaque(), "the first reply answers the second request");
                assertTrue(reply.isResponse());
                assertEquals(ResponseCode.SUCCESS, reply.code(), reply.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aConnectionBeyondMaxConnectionsIsClosedWhileTheOthersAreServed(Vertx vertx, VertxTestContext test,
                                                                        @TempDir Path dir) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        NetClient raw = vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000));
        RemotingCommand topicList = RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER);
        TestNameServer.start(vertx, TestNameServer.config(dir).put("maxConnections", 1))
            .compose(server -> client.invoke(server.address(), topicList)
                .compose(answered -> raw.connect(server.remotingPort(), TestNameServer.HOST))
                .compose(refused -> {
                    Promise<Void> closed = Promise.promise();
                    refused.closeHandler(ignored -> closed.tryComplete());
                    return closed.future();
                })
                .compose(closed -> client.invoke(server.address(), topicList)))
            .map(answered -> {
                assertEquals(ResponseCode.SUCCESS, answered.code(), answered.remark());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aFailedStartLeavesNoRemotingListenerBehind(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        NetClient probe = vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000));
        vertx.createNetServer().connectHandler(socket -> socket.close()).listen(0, TestNameServer.HOST)
            .compose(occupied -> {
                NameServerVerticle verticle = new NameServerVerticle(TestNameServer.config(dir)
                    .put("adminPort", occupied.actualPort()), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
                return vertx.deployVerticle(verticle)
                    .transform(deployed -> {
                        assertTrue(deployed.failed(), "deployment with an occupied admin port fails");
                        assertTrue(verticle.remotingPort() > 0, "the remoting port was bound before the admin port");
                        // Vert.x closes a failed deployment's servers after reporting the failure: wait for it.
                        return Eventually.until(vertx, () -> probe.connect(verticle.remotingPort(), TestNameServer.HOST)
                                .compose(socket -> socket.close().map(true), refused -> Future.succeededFuture(false)),
                            isListening -> !isListening, "remoting port " + verticle.remotingPort() + " released");
                    });
            })
            .onComplete(test.succeedingThenComplete());
    }
}
