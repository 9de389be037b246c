package io.vrmq.broker.grpc;

import com.google.protobuf.ByteString;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.ServiceMethod;
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
import io.vrmq.grpc.proto.ReceiveMessageRequest;
import io.vrmq.grpc.proto.ReceiveMessageResponse;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.SendMessageRequest;
import io.vrmq.grpc.proto.SendMessageResponse;
import io.vrmq.grpc.proto.Settings;
import io.vrmq.grpc.proto.Subscription;
import io.vrmq.grpc.proto.SystemProperties;
import io.vrmq.grpc.proto.TelemetryCommand;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The gRPC endpoint's link to the broker outlives the expiry of its only client's registration: a receive held on
 * the link across the expiry still ends as "no new message" (the expiry closed the link, and every call on it
 * failed), and the silent registration is gone.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GrpcLinkExpiryIT {
    private static final String CLIENT_ID = "quiet-host@1@1@abc";
    private static final long EXPIRY_MS = 1_000;
    /** Held on the link well past the expiry of the registration made just before it. */
    private static final long POLL_MS = 3 * EXPIRY_MS;

    @Test
    void aHeldReceiveSurvivesTheExpiryOfItsClientsRegistration(Vertx vertx, VertxTestContext test,
                                                              @TempDir Path dir) {
        BrokerVerticle broker = new BrokerVerticle(TestBrokerRequests.config(dir).put("grpcListenPort", 0)
            .put("channelExpiredTimeout", EXPIRY_MS).put("clientChannelScanInterval", 100)
            .put("grpcClientConsumerMinLongPollingTimeoutMillis", 100));
        GrpcClient client = GrpcClient.client(vertx);
        RemotingClient remoting = new RemotingClient(vertx, new RemotingLimits(16 * 1024 * 1024, 1024 * 1024,
            3_000, 1_024));
        vertx.deployVerticle(broker).compose(id -> {
            SocketAddress address = SocketAddress.inetSocketAddress(broker.grpcPort(), "127.0.0.1");
            String brokerAddress = "127.0.0.1:" + broker.listenPort();
            return send(client, address)
                .compose(sent -> settings(client, address))
                .compose(registered -> receive(client, address))
                .compose(received -> remoting.invoke(brokerAddress, RemotingCommand.request(
                    RequestCode.GET_CONSUMER_LIST_BY_GROUP, Map.of("consumerGroup", "QUIET"), null)).map(list -> {
                        test.verify(() -> {
                            assertEquals(Code.MESSAGE_NOT_FOUND, received.getStatus().getCode(),
                                received.getStatus().getMessage());
                            assertEquals(ResponseCode.SYSTEM_ERROR, list.code(), "the silent client is registered");
                        });
                        return null;
                    }))
                .eventually(() -> client.close().eventually(remoting::close).eventually(() -> vertx.undeploy(id)));
        }).onComplete(test.succeedingThenComplete());
    }

    private static Future<SendMessageResponse> send(GrpcClient client, SocketAddress address) {
        return client.request(address, method("SendMessage", SendMessageResponse.getDefaultInstance()))
            .compose(request -> {
                request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
                return request.send(SendMessageRequest.newBuilder().addMessages(Message.newBuilder()
                    .setTopic(Resource.newBuilder().setName("Q"))
                    .setSystemProperties(SystemProperties.newBuilder().setMessageId("0100000000000000000000000009")
                        .setMessageType(MessageType.NORMAL))
                    .setBody(ByteString.copyFromUtf8("made the topic"))).build());
            }).compose(GrpcClientResponse::last);
    }

    /** A simple consumer's settings: registers it with the broker (one heartbeat over the link), then silence. */
    private static Future<TelemetryCommand> settings(GrpcClient client, SocketAddress address) {
        return client.request(address, method("Telemetry", TelemetryCommand.getDefaultInstance())).compose(request -> {
            request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
            Future<TelemetryCommand> first = request.response().compose(response -> {
                Promise<TelemetryCommand> answer = Promise.promise();
                response.handler(answer::tryComplete);
                response.endHandler(ended -> answer.tryFail("telemetry ended without an answer"));
                return answer.future();
            });
            request.write(TelemetryCommand.newBuilder().setSettings(Settings.newBuilder()
                .setClientType(ClientType.SIMPLE_CONSUMER).setSubscription(Subscription.newBuilder()
                    .setGroup(Resource.newBuilder().setName("QUIET")))).build());
            return first;
        });
    }

    /** A receive that finds nothing (no message has the tag) and is held for POLL_MS; its first part, the status. */
    private static Future<ReceiveMessageResponse> receive(GrpcClient client, SocketAddress address) {
        return client.request(address, method("ReceiveMessage", ReceiveMessageResponse.getDefaultInstance()))
            .compose(request -> {
                request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
                request.timeout(10, TimeUnit.SECONDS);
                return request.send(ReceiveMessageRequest.newBuilder().setGroup(Resource.newBuilder()
                        .setName("QUIET"))
                    .setMessageQueue(MessageQueue.newBuilder().setTopic(Resource.newBuilder().setName("Q")))
                    .setFilterExpression(FilterExpression.newBuilder().setType(FilterType.TAG)
                        .setExpression("NO_SUCH_TAG"))
                    .setBatchSize(1).setInvisibleDuration(SettingsReply.millis(30_000))
                    .setLongPollingTimeout(SettingsReply.millis(POLL_MS)).build());
            }).compose(response -> {
                Promise<ReceiveMessageResponse> status = Promise.promise();
                response.handler(status::tryComplete);
                response.endHandler(ended -> status.tryFail("the receive ended without a status"));
                response.exceptionHandler(status::tryFail);
                return status.future();
            });
    }

    private static <Q extends com.google.protobuf.MessageLite, R extends com.google.protobuf.Message>
        ServiceMethod<R, Q> method(String name, R responsePrototype) {
        return ServiceMethod.client(MessagingServiceGrpcService.SERVICE_NAME, name, GrpcMessageEncoder.encoder(),
            GrpcMessageDecoder.decoder(responsePrototype));
    }
}
