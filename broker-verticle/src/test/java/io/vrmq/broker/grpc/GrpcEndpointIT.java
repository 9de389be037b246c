package io.vrmq.broker.grpc;

import com.google.protobuf.ByteString;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientRequest;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.grpc.proto.ClientType;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.FilterExpression;
import io.vrmq.grpc.proto.FilterType;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessageQueue;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.Publishing;
import io.vrmq.grpc.proto.PullMessageRequest;
import io.vrmq.grpc.proto.PullMessageResponse;
import io.vrmq.grpc.proto.QueryRouteRequest;
import io.vrmq.grpc.proto.QueryRouteResponse;
import io.vrmq.grpc.proto.ReceiveMessageRequest;
import io.vrmq.grpc.proto.ReceiveMessageResponse;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.SendMessageRequest;
import io.vrmq.grpc.proto.SendMessageResponse;
import io.vrmq.grpc.proto.Settings;
import io.vrmq.grpc.proto.Subscription;
import io.vrmq.grpc.proto.SystemProperties;
import io.vrmq.grpc.proto.TelemetryCommand;
import io.vrmq.grpc.proto.ThreadStackTrace;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gRPC endpoint on the wire, with Vert.x's own gRPC client: what every SDK depends on in the Settings answer
 * (GRPC.md 1.1 and 7: the Node SDK needs max_body_size, an exponential backoff, receive_batch_size), the required
 * client id, UNIMPLEMENTED for what is not served, and the shape of a receive stream (status, messages with an MD5
 * body digest, delivery timestamp, end) for both outcomes.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GrpcEndpointIT {
    private static final String CLIENT_ID = "test-host@1@1@abc";

    @Test
    void settingsAnswerCarriesWhatTheSdksNeed(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        withBroker(vertx, dir, (client, address) -> telemetry(client, address, Settings.newBuilder()
                .setClientType(ClientType.PRODUCER).setPublishing(Publishing.newBuilder()
                    .addTopics(Resource.newBuilder().setName("T"))).build())
            .compose(producer -> telemetry(client, address, Settings.newBuilder()
                // An unknown group: created on first use (else the answer would be INVALID_ARGUMENT).
                .setClientType(ClientType.PUSH_CONSUMER).setSubscription(Subscription.newBuilder()
                    .setGroup(Resource.newBuilder().setName("NEW_GROUP"))).build())
                .map(consumer -> {
                    test.verify(() -> {
                        assertEquals(Code.OK, producer.getStatus().getCode());
                        assertEquals(1024 * 1024, producer.getSettings().getPublishing().getMaxBodySize());
                        assertTrue(producer.getSettings().getPublishing().getValidateMessageType());
                        assertTrue(producer.getSettings().getBackoffPolicy().hasExponentialBackoff());
                        Subscription subscription = consumer.getSettings().getSubscription();
                        assertTrue(subscription.getReceiveBatchSize() > 0);
                        assertTrue(subscription.hasLongPollingTimeout() && subscription.hasFifo());
                        assertTrue(consumer.getSettings().getBackoffPolicy().hasExponentialBackoff());
                        assertEquals(17, consumer.getSettings().getBackoffPolicy().getMaxAttempts());
                    });
                    return null;
                })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void callsNeedAClientIdAndUnservedRpcsAreUnimplemented(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        ServiceMethod<PullMessageResponse, PullMessageRequest> pull = clientMethod("PullMessage",
            PullMessageResponse.getDefaultInstance());
        withBroker(vertx, dir, (client, address) -> client.request(address, queryRoute())
            .compose(request -> request.send(QueryRouteRequest.newBuilder()
                .setTopic(Resource.newBuilder().setName("T")).build()))
            .compose(GrpcClientResponse::last)
            .compose(route -> client.request(address, pull).compose(request -> {
                request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
                return request.send(PullMessageRequest.getDefaultInstance());
            }).map(response -> {
                test.verify(() -> {
                    assertEquals(Code.CLIENT_ID_REQUIRED, route.getStatus().getCode());
                    assertEquals(GrpcStatus.UNIMPLEMENTED, response.status());
                });
                return null;
            })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void aReceiveStreamsStatusMessagesAndTimestampThenEnds(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        // Topic R does not exist: the send creates it from TBW102 (autoCreateTopicEnable), as for remoting.
        withBroker(vertx, dir, (client, address) -> call(client, address, queryRoute(), QueryRouteRequest
                .newBuilder().setTopic(Resource.newBuilder().setName("UNKNOWN")).build())
            .compose(unknown -> call(client, address, send(), SendMessageRequest.newBuilder()
                .addMessages(Message.newBuilder().setTopic(Resource.newBuilder().setName("R"))
                    .setSystemProperties(SystemProperties.newBuilder().setMessageId("0100000000000000000000000001")
                        .setTag("TagA").setMessageType(MessageType.NORMAL))
                    .setBody(ByteString.copyFromUtf8("hello"))).build())
                .compose(sent -> receive(client, address, "R"))
                .compose(found -> receive(client, address, "R").map(empty -> {
                    test.verify(() -> {
                        assertEquals(Code.TOPIC_NOT_FOUND, unknown.getStatus().getCode());
                        assertEquals(3, found.size(), "status, message, delivery timestamp: " + found);
                        assertEquals(Code.OK, found.get(0).getStatus().getCode());
                        Message message = found.get(1).getMessage();
                        assertEquals("hello", message.getBody().toStringUtf8());
                        assertEquals("5D41402ABC4B2A76B9719D911017C592",
                            message.getSystemProperties().getBodyDigest().getChecksum());
                        assertEquals(1, message.getSystemProperties().getDeliveryAttempt());
                        assertTrue(message.getSystemProperties().hasReceiptHandle());
                        assertTrue(found.get(2).hasDeliveryTimestamp());
                        assertEquals(2, empty.size(), "status, delivery timestamp: " + empty);
                        assertEquals(Code.MESSAGE_NOT_FOUND, empty.get(0).getStatus().getCode());
                    });
                    return null;
                }))))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theAdminApiListsGrpcClients(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        WebClient web = WebClient.create(vertx);
        withBroker(vertx, dir, (client, address, adminPort) -> telemetry(client, address, Settings.newBuilder()
                .setClientType(ClientType.SIMPLE_CONSUMER).setSubscription(Subscription.newBuilder()
                    .setGroup(Resource.newBuilder().setName("LISTED"))).build())
            .compose(answered -> web.get(adminPort, "127.0.0.1", "/api/v1/grpc/clients").send())
            .map(response -> {
                test.verify(() -> {
                    JsonObject listed = response.bodyAsJsonObject().getJsonArray("clients").getJsonObject(0);
                    assertEquals(CLIENT_ID, listed.getString("clientId"));
                    assertEquals("SIMPLE_CONSUMER", listed.getString("clientType"));
                    assertEquals("LISTED", listed.getString("group"));
                });
                return null;
            }))
            .onComplete(done -> web.close())
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void anAdminQuestionIsAskedOnTheClientsTelemetryStream(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient remoting = new RemotingClient(vertx, new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 3_000, 1_024));
        withBroker(vertx, dir, (client, address, adminPort, brokerAddress) -> answeringConsumer(client, address,
                "RUN_GROUP")
            .compose(stream -> TestBrokerRequests.pollFor(vertx, () -> remoting.invoke(brokerAddress,
                    RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO, Map.of("consumerGroup",
                        "RUN_GROUP", "clientId", CLIENT_ID, "jstackEnable", "true"), null)),
                reply -> reply.code() == ResponseCode.SUCCESS, 10_000)
                .map(reply -> {
                    test.verify(() -> assertEquals("stack of " + CLIENT_ID, new JsonObject(reply.body())
                        .getString("jstack")));
                    return null;
                })
                .eventually(() -> stream.end())))
            .onComplete(done -> remoting.close())
            .onComplete(test.succeedingThenComplete());
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    @FunctionalInterface
    private interface Scenario {
        Future<?> run(GrpcClient client, SocketAddress address);
    }

    @FunctionalInterface
    private interface AdminScenario {
        Future<?> run(GrpcClient client, SocketAddress address, int adminPort);
    }

    @FunctionalInterface
    private interface BrokerScenario {
        Future<?> run(GrpcClient client, SocketAddress address, int adminPort, String brokerAddress);
    }

    /** Our broker with its gRPC endpoint on a free port, stopped (and the client closed) after the scenario. */
    private static Future<Void> withBroker(Vertx vertx, Path dir, Scenario scenario) {
        return withBroker(vertx, dir, (client, address, adminPort) -> scenario.run(client, address));
    }

    /** The same with the admin API on a free port. */
    private static Future<Void> withBroker(Vertx vertx, Path dir, AdminScenario scenario) {
        return withBroker(vertx, dir, (client, address, adminPort, brokerAddress) -> scenario.run(client, address,
            adminPort));
    }

    /** The same, also naming the broker's remoting address. */
    private static Future<Void> withBroker(Vertx vertx, Path dir, BrokerScenario scenario) {
        BrokerVerticle verticle = new BrokerVerticle(TestBrokerRequests.config(dir).put("grpcListenPort", 0)
            .put("adminPort", 0).put("adminHost", "127.0.0.1"));
        GrpcClient client = GrpcClient.client(vertx);
        return vertx.deployVerticle(verticle).compose(id -> {
            SocketAddress address = SocketAddress.inetSocketAddress(verticle.grpcPort(), "127.0.0.1");
            return scenario.run(client, address, verticle.adminPort(), "127.0.0.1:" + verticle.listenPort())
                .eventually(() -> client.close().eventually(() -> vertx.undeploy(id)));
        }).mapEmpty();
    }

    private static Future<TelemetryCommand> telemetry(GrpcClient client, SocketAddress address, Settings settings) {
        ServiceMethod<TelemetryCommand, TelemetryCommand> method = clientMethod("Telemetry",
            TelemetryCommand.getDefaultInstance());
        return client.request(address, method).compose(request -> {
            request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
            Future<TelemetryCommand> first = request.response().compose(response -> {
                Promise<TelemetryCommand> answer = Promise.promise();
                response.handler(answer::tryComplete);
                response.endHandler(ended -> answer.tryFail("telemetry ended without an answer"));
                return answer.future();
            });
            request.write(TelemetryCommand.newBuilder().setSettings(settings).build());
            return first.eventually(request::end);
        });
    }

    /** A push consumer's Telemetry stream that answers every PrintThreadStackTraceCommand; open when answered once. */
    private static Future<GrpcClientRequest<TelemetryCommand, TelemetryCommand>> answeringConsumer(
        GrpcClient client, SocketAddress address, String group) {
        ServiceMethod<TelemetryCommand, TelemetryCommand> method = clientMethod("Telemetry",
            TelemetryCommand.getDefaultInstance());
        return client.request(address, method).compose(request -> {
            request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
            Promise<GrpcClientRequest<TelemetryCommand, TelemetryCommand>> settled = Promise.promise();
            request.response().onSuccess(response -> response.handler(command -> {
                if (command.hasSettings()) {
                    settled.tryComplete(request);
                } else if (command.hasPrintThreadStackTraceCommand()) {
                    request.write(TelemetryCommand.newBuilder().setStatus(Statuses.ok())
                        .setThreadStackTrace(ThreadStackTrace.newBuilder()
                            .setNonce(command.getPrintThreadStackTraceCommand().getNonce())
                            .setThreadStackTrace("stack of " + CLIENT_ID)).build());
                }
            })).onFailure(settled::tryFail);
            request.write(TelemetryCommand.newBuilder().setSettings(Settings.newBuilder()
                .setClientType(ClientType.PUSH_CONSUMER).setSubscription(Subscription.newBuilder()
                    .setGroup(Resource.newBuilder().setName(group)))).build());
            return settled.future();
        });
    }

    private static <Q, R> Future<R> call(GrpcClient client, SocketAddress address, ServiceMethod<R, Q> method,
                                         Q message) {
        return client.request(address, method).compose(request -> {
            request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
            return request.send(message);
        }).compose(GrpcClientResponse::last);
    }

    private static Future<List<ReceiveMessageResponse>> receive(GrpcClient client, SocketAddress address,
                                                                String topic) {
        ReceiveMessageRequest request = ReceiveMessageRequest.newBuilder()
            .setGroup(Resource.newBuilder().setName("G"))
            .setMessageQueue(MessageQueue.newBuilder().setTopic(Resource.newBuilder().setName(topic)).setId(0))
            .setFilterExpression(FilterExpression.newBuilder().setType(FilterType.TAG).setExpression("*"))
            .setBatchSize(16).setInvisibleDuration(SettingsReply.millis(30_000))
            .setLongPollingTimeout(SettingsReply.millis(5_000)).build();
        ServiceMethod<ReceiveMessageResponse, ReceiveMessageRequest> method = clientMethod("ReceiveMessage",
            ReceiveMessageResponse.getDefaultInstance());
        return client.request(address, method).compose(call -> {
                call.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
                call.timeout(10, TimeUnit.SECONDS);
                return call.send(request);
            }).compose(response -> {
                List<ReceiveMessageResponse> parts = new ArrayList<>();
                Promise<List<ReceiveMessageResponse>> ended = Promise.promise();
                response.handler(parts::add);
                response.endHandler(done -> ended.tryComplete(parts));
                response.exceptionHandler(ended::tryFail);
                return ended.future();
            });
    }

    private static ServiceMethod<QueryRouteResponse, QueryRouteRequest> queryRoute() {
        return clientMethod("QueryRoute", QueryRouteResponse.getDefaultInstance());
    }

    private static ServiceMethod<SendMessageResponse, SendMessageRequest> send() {
        return clientMethod("SendMessage", SendMessageResponse.getDefaultInstance());
    }

    /** A client-side method descriptor (the generated code has server-side ones only). */
    private static <Q extends com.google.protobuf.MessageLite, R extends com.google.protobuf.Message>
        ServiceMethod<R, Q> clientMethod(String name, R responsePrototype) {
        return ServiceMethod.client(MessagingServiceGrpcService.SERVICE_NAME, name, GrpcMessageEncoder.encoder(),
            GrpcMessageDecoder.decoder(responsePrototype));
    }
}
