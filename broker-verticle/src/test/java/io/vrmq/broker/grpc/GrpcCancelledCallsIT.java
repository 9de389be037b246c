package io.vrmq.broker.grpc;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.json.JsonObject;
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
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.FilterExpression;
import io.vrmq.grpc.proto.FilterType;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessageQueue;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.QueryRouteRequest;
import io.vrmq.grpc.proto.QueryRouteResponse;
import io.vrmq.grpc.proto.ReceiveMessageRequest;
import io.vrmq.grpc.proto.ReceiveMessageResponse;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.SendMessageRequest;
import io.vrmq.grpc.proto.SendMessageResponse;
import io.vrmq.grpc.proto.SystemProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls the client cancels (RST_STREAM), as every SDK does with a call that misses its deadline: many of them keep
 * the connection (Vert.x's rapid-reset guard of 200 per 30 s closed it), and their late answers are dropped quietly
 * and counted as CANCELLED, for unary calls and for a receive stream, instead of failing with "The stream is failed".
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrpcCancelledCallsIT {
    private static final String CLIENT_ID = "cancel-host@1@1@abc";
    /** Above Vert.x's own limit of 200 resets per 30 s, far below the broker's default. */
    private static final int RESETS = 300;
    /** Receives held briefly: each is cancelled while the broker holds it. */
    private static final JsonObject SHORT_POLLS = new JsonObject()
        .put("grpcClientConsumerMinLongPollingTimeoutMillis", 100);

    @Test
    void manyCancelledCallsKeepTheConnection(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        // Held receives: a reset counts only while its stream is open (not for a call already answered).
        withBroker(vertx, dir, SHORT_POLLS, (client, address, registry) -> {
            AtomicBoolean isClosed = new AtomicBoolean();
            return answeredSend(client, address)
                .compose(topicMade -> cancelled(client, address, receive(), receiveRequest()))
                .compose(first -> {
                    first.closeHandler(closed -> isClosed.set(true));
                    return repeat(RESETS - 1, i -> cancelled(client, address, receive(), receiveRequest()))
                        .compose(last -> answeredOn(client, address).map(after -> {
                            test.verify(() -> {
                                assertFalse(isClosed.get(), "the connection was closed after the resets");
                                assertSame(first, after, "a new connection was opened");
                            });
                            return null;
                        }));
                });
        }).onComplete(test.succeedingThenComplete());
    }

    @Test
    void answersToCancelledCallsAreDroppedQuietly(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        List<Throwable> unhandled = new CopyOnWriteArrayList<>();
        vertx.exceptionHandler(unhandled::add);
        int sends = 40;
        int receives = 3;
        withBroker(vertx, dir, SHORT_POLLS, (client, address, registry) -> answeredSend(client, address)
            .compose(topicMade -> repeat(sends, i -> cancelled(client, address, send(), sendRequest(i))))
            .compose(sent -> repeat(receives, i -> cancelled(client, address, receive(), receiveRequest())))
            .compose(received -> TestBrokerRequests.pollFor(vertx,
                () -> Future.succeededFuture(count(registry, "SendMessage", null)
                    + count(registry, "ReceiveMessage", null)), total -> total == 1 + sends + receives, 20_000))
            .map(counted -> {
                test.verify(() -> {
                    assertEquals(List.of(), unhandled, "errors from answering cancelled calls");
                    assertEquals(receives, count(registry, "ReceiveMessage", GrpcMeters.CANCELLED),
                        "a held receive ends after its client gave up");
                    assertTrue(count(registry, "SendMessage", GrpcMeters.CANCELLED) > 0,
                        "no send was cancelled before its answer: the test raced nothing");
                });
                return null;
            }))
            .onComplete(test.succeedingThenComplete());
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    @FunctionalInterface
    private interface Scenario {
        Future<?> run(GrpcClient client, SocketAddress address, PrometheusMeterRegistry registry);
    }

    private static Future<Void> withBroker(Vertx vertx, Path dir, JsonObject extra, Scenario scenario) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        BrokerVerticle verticle = new BrokerVerticle(TestBrokerRequests.config(dir).put("grpcListenPort", 0)
            .mergeIn(extra), registry);
        GrpcClient client = GrpcClient.client(vertx);
        return vertx.deployVerticle(verticle).compose(id -> {
            SocketAddress address = SocketAddress.inetSocketAddress(verticle.grpcPort(), "127.0.0.1");
            return scenario.run(client, address, registry)
                .eventually(() -> client.close().eventually(() -> vertx.undeploy(id)));
        }).mapEmpty();
    }

    /** Sends {@code message} and cancels the call at once; the connection it went on. */
    private static <Q, R> Future<HttpConnection> cancelled(GrpcClient client, SocketAddress address,
                                                           ServiceMethod<R, Q> method, Q message) {
        return client.request(address, method).map(request -> {
            request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
            request.timeout(10, TimeUnit.SECONDS);
            request.end(message);
            request.cancel();
            return request.connection();
        });
    }

    /** A send that is answered: it creates topic C. */
    private static Future<SendMessageResponse> answeredSend(GrpcClient client, SocketAddress address) {
        return client.request(address, send()).compose(request -> {
            request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
            return request.send(sendRequest(999_999));
        }).compose(GrpcClientResponse::last).map(reply -> {
            assertEquals(Code.OK, reply.getStatus().getCode(), reply.toString());
            return reply;
        });
    }

    /** A QueryRoute that is answered; the connection it went on. */
    private static Future<HttpConnection> answeredOn(GrpcClient client, SocketAddress address) {
        return client.request(address, queryRoute()).compose(request -> {
            request.headers().set(GrpcCall.CLIENT_ID, CLIENT_ID);
            return request.send(QueryRouteRequest.newBuilder().setTopic(Resource.newBuilder().setName("T")).build())
                .compose(GrpcClientResponse::last)
                .map(reply -> {
                    assertEquals(Code.TOPIC_NOT_FOUND, reply.getStatus().getCode());
                    return request.connection();
                });
        });
    }

    /** Runs {@code step} {@code times} times one after the other; the last step's result. */
    private static <T> Future<T> repeat(int times, Function<Integer, Future<T>> step) {
        Future<T> chain = step.apply(0);
        for (int i = 1; i < times; i++) {
            int index = i;
            chain = chain.compose(previous -> step.apply(index));
        }
        return chain;
    }

    /** Calls counted by mq.grpc.requests for {@code rpc}, of one code or (null) of all. */
    private static long count(PrometheusMeterRegistry registry, String rpc, String code) {
        return (long) registry.find("mq.grpc.requests").tag("rpc", rpc).counters().stream()
            .filter(counter -> code == null || code.equals(counter.getId().getTag("code")))
            .mapToDouble(Counter::count).sum();
    }

    private static SendMessageRequest sendRequest(int index) {
        return SendMessageRequest.newBuilder().addMessages(Message.newBuilder()
            .setTopic(Resource.newBuilder().setName("C"))
            .setSystemProperties(SystemProperties.newBuilder().setMessageId(String.format("01%026d", index))
                .setMessageType(MessageType.NORMAL))
            .setBody(ByteString.copyFromUtf8("late " + index))).build();
    }

    private static ReceiveMessageRequest receiveRequest() {
        return ReceiveMessageRequest.newBuilder().setGroup(Resource.newBuilder().setName("G"))
            .setMessageQueue(MessageQueue.newBuilder().setTopic(Resource.newBuilder().setName("C")).setId(0))
            .setFilterExpression(FilterExpression.newBuilder().setType(FilterType.TAG).setExpression("NO_SUCH_TAG"))
            .setBatchSize(1).setInvisibleDuration(SettingsReply.millis(30_000))
            .setLongPollingTimeout(SettingsReply.millis(300)).build();
    }

    private static ServiceMethod<QueryRouteResponse, QueryRouteRequest> queryRoute() {
        return clientMethod("QueryRoute", QueryRouteResponse.getDefaultInstance());
    }

    private static ServiceMethod<SendMessageResponse, SendMessageRequest> send() {
        return clientMethod("SendMessage", SendMessageResponse.getDefaultInstance());
    }

    private static ServiceMethod<ReceiveMessageResponse, ReceiveMessageRequest> receive() {
        return clientMethod("ReceiveMessage", ReceiveMessageResponse.getDefaultInstance());
    }

    private static <Q extends com.google.protobuf.MessageLite, R extends com.google.protobuf.Message>
        ServiceMethod<R, Q> clientMethod(String name, R responsePrototype) {
        return ServiceMethod.client(MessagingServiceGrpcService.SERVICE_NAME, name, GrpcMessageEncoder.encoder(),
            GrpcMessageDecoder.decoder(responsePrototype));
    }
}
