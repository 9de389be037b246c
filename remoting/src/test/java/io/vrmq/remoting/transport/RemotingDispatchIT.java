package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.CommandCodec;
import io.vrmq.remoting.protocol.LanguageCode;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vrmq.remoting.transport.TestServer.ECHO;
import static io.vrmq.remoting.transport.TestServer.NOT_REGISTERED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a server answers what arrives: correlation by opaque, error replies, oneway, header type. */
@ExtendWith(VertxExtension.class)
class RemotingDispatchIT {
    private static final int ANSWERS_IN_REVERSE = 9_101;
    private static final int THROWS = 9_102;
    private static final int FAILS_WITH_NO_PERMISSION = 9_103;
    private static final int THROWS_TOPIC_NOT_EXIST = 9_104;
    private static final int RECORDS_ONEWAY = 9_105;
    private static final int GIVES_NO_RESPONSE = 9_106;
    private static final int CONCURRENT_REQUESTS = 200;

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void concurrentRequestsAreEachCompletedByTheResponseWithTheirOpaque(Vertx vertx, VertxTestContext test) {
        ProcessorTable processors = ProcessorTable.builder()
            .register(ANSWERS_IN_REVERSE, answersAllInReverseOnceAllArrived(CONCURRENT_REQUESTS))
            .build();
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, processors)
            .compose(server -> {
                List<Future<RemotingCommand>> calls = new ArrayList<>();
                for (int i = 0; i < CONCURRENT_REQUESTS; i++) {
                    calls.add(client.invoke(server.address(), RemotingCommand.request(ANSWERS_IN_REVERSE,
                        Map.of("n", String.valueOf(i)), Buffer.buffer("request " + i))));
                }
                return Future.all(calls).map(all -> calls);
            })
            .map(calls -> {
                for (int i = 0; i < CONCURRENT_REQUESTS; i++) {
                    RemotingCommand response = calls.get(i).result();
                    assertEquals(ResponseCode.SUCCESS, response.code());
                    assertEquals(String.valueOf(i), response.ext("n"));
                    assertEquals(Buffer.buffer("reply " + i), response.body());
                }
                return calls;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void anUnknownCodeIsAnsweredWithRequestCodeNotSupportedAndTheConnectionStays(Vertx vertx,
                                                                                 VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address()))
            .compose(connection -> connection.invoke(RemotingCommand.request(NOT_REGISTERED), 5_000)
                .map(response -> {
                    assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, response.code());
                    assertEquals(" request type " + NOT_REGISTERED + " not supported", response.remark());
                    assertTrue(response.isResponse());
                    return response;
                })
                .compose(ignored -> connection.invoke(RemotingCommand.request(ECHO), 5_000))
                .map(echoed -> {
                    assertEquals(ResponseCode.SUCCESS, echoed.code());
                    assertFalse(connection.isClosed());
                    return echoed;
                }))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aProcessorThatThrowsIsAnsweredWithSystemErrorCarryingTheMessage(Vertx vertx, VertxTestContext test) {
        ProcessorTable processors = ProcessorTable.builder()
            .register(THROWS, (connection, request) -> {
                throw new IllegalStateException("processor exploded on purpose");
            })
            .build();

        invokeOnce(vertx, processors, RemotingCommand.request(THROWS))
            .map(response -> {
                assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
                assertTrue(response.remark().contains("processor exploded on purpose"), response.remark());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aProcessorThatGivesNoResponseIsAnsweredWithSystemErrorNamingTheCode(Vertx vertx, VertxTestContext test) {
        ProcessorTable processors = ProcessorTable.builder()
            .register(GIVES_NO_RESPONSE, (connection, request) -> Future.succeededFuture(null))
            .build();

        invokeOnce(vertx, processors, RemotingCommand.request(GIVES_NO_RESPONSE))
            .map(response -> {
                assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
                assertTrue(response.remark().contains(String.valueOf(GIVES_NO_RESPONSE)), response.remark());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aProcessorFailedWithRemotingCommandExceptionIsAnsweredWithItsCodeAndMessage(Vertx vertx,
                                                                                    VertxTestContext test) {
        ProcessorTable processors = ProcessorTable.builder()
            .register(FAILS_WITH_NO_PERMISSION, (connection, request) -> Future.failedFuture(
                new RemotingCommandException(ResponseCode.NO_PERMISSION, "the topic T is not writable")))
            .build();

        invokeOnce(vertx, processors, RemotingCommand.request(FAILS_WITH_NO_PERMISSION))
            .map(response -> {
                assertEquals(ResponseCode.NO_PERMISSION, response.code());
                assertEquals("the topic T is not writable", response.remark());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aProcessorThrowingRemotingCommandExceptionIsAnsweredWithItsCode(Vertx vertx, VertxTestContext test) {
        ProcessorTable processors = ProcessorTable.builder()
            .register(THROWS_TOPIC_NOT_EXIST, (connection, request) -> {
                throw new RemotingCommandException(ResponseCode.TOPIC_NOT_EXIST, "topic T does not exist");
            })
            .build();

        invokeOnce(vertx, processors, RemotingCommand.request(THROWS_TOPIC_NOT_EXIST))
            .map(response -> {
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, response.code());
                assertEquals("topic T does not exist", response.remark());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aRocketMqRequestIsAnsweredInTheRocketMqHeaderType(Vertx vertx, VertxTestContext test) {
        RemotingCommand request = RemotingCommand.request(ECHO, Map.of("topic", "TopicTest", "queueId", "2"),
            Buffer.buffer("binary header body")).withSerializeType(SerializeType.ROCKETMQ);

        invokeOnce(vertx, TestServer.standardProcessors().build(), request)
            .map(response -> {
                assertEquals(SerializeType.ROCKETMQ, response.serializeType(), "the response's header type");
                assertEquals("ROCKETMQ", response.ext("requestSerializeType"), "the request's header type");
                assertEquals("TopicTest", response.ext("topic"));
                assertEquals("2", response.ext("queueId"));
                assertEquals(Buffer.buffer("binary header body"), response.body());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void theResponseEchoesTheOpaqueTheRequestCarried(Vertx vertx, VertxTestContext test) {
        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> RawSocket.open(vertx, server.port()))
            .compose(socket -> socket.send(CommandCodec.encode(rawRequest(ECHO, 777_777, 0)))
                .compose(sent -> socket.nextCommand()))
            .map(response -> {
                assertEquals(777_777, response.opaque());
                assertTrue(response.isResponse());
                assertEquals(ResponseCode.SUCCESS, response.code());
                assertEquals(RemotingCommand.OUR_VERSION, response.version());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aOnewayRequestReachesItsProcessorFlaggedOneway(Vertx vertx, VertxTestContext test) {
        Promise<RemotingCommand> seen = Promise.promise();
        ProcessorTable processors = ProcessorTable.builder()
            .register(RECORDS_ONEWAY, recordingOneway(seen))
            .build();
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, processors)
            .compose(server -> client.invokeOneway(server.address(), RemotingCommand.request(RECORDS_ONEWAY,
                Map.of("consumerGroup", "CG"), null)))
            .compose(sent -> seen.future())
            .map(request -> {
                assertTrue(request.isOneway());
                assertEquals("CG", request.ext("consumerGroup"));
                return request;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aOnewayRequestGetsNoReplyAndTheConnectionKeepsServing(Vertx vertx, VertxTestContext test) {
        Promise<RemotingCommand> seen = Promise.promise();
        ProcessorTable processors = TestServer.standardProcessors()
            .register(RECORDS_ONEWAY, recordingOneway(seen))
            .build();

        TestServer.start(vertx, processors)
            .compose(server -> RawSocket.open(vertx, server.port()))
            .compose(socket -> socket.send(CommandCodec.encode(rawRequest(RECORDS_ONEWAY, 41,
                    RemotingCommand.ONEWAY_FLAG)))
                .compose(sent -> socket.send(CommandCodec.encode(rawRequest(ECHO, 42, 0))))
                .compose(sent -> socket.nextCommand())
                .map(first -> {
                    // The oneway was dispatched first and its processor offered a reply at once: had the server
                    // written it, it would have come before this one.
                    assertEquals(42, first.opaque(), "the first reply answers the second request");
                    assertEquals(1, socket.receivedCount());
                    return first;
                }))
            .compose(first -> seen.future())
            .map(oneway -> {
                assertEquals(41, oneway.opaque());
                return oneway;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aRequestWithoutBodyIsAnsweredWithoutBody(Vertx vertx, VertxTestContext test) {
        invokeOnce(vertx, TestServer.standardProcessors().build(), RemotingCommand.request(ECHO))
            .map(response -> {
                assertNull(response.body());
                assertEquals(ResponseCode.SUCCESS, response.code());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void oneClientServesEveryCallToAnAddressOverOneConnection(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(ECHO))
                .compose(first -> Future.all(client.connection(server.address()),
                    client.connection(server.address())))
                .map(both -> {
                    assertSame(both.resultAt(0), both.resultAt(1));
                    assertEquals(1, server.server().connectionCount());
                    return both;
                }))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * Holds every request until {@code count} have arrived, then answers them newest first, so that responses
     * come back in another order than the requests went out. Called on the one connection's event loop only.
     */
    private static RequestProcessor answersAllInReverseOnceAllArrived(int count) {
        List<RemotingCommand> requests = new ArrayList<>();
        List<Promise<RemotingCommand>> replies = new ArrayList<>();
        return (connection, request) -> {
            Promise<RemotingCommand> reply = Promise.promise();
            requests.add(request);
            replies.add(reply);
            if (requests.size() == count) {
                for (int i = count - 1; i >= 0; i--) {
                    RemotingCommand held = requests.get(i);
                    replies.get(i).complete(RemotingCommand.success(held, Map.of("n", held.ext("n")),
                        Buffer.buffer("reply " + held.ext("n"))));
                }
            }
            return reply.future();
        };
    }

    /** Records the request and offers a reply, which the transport must drop for a oneway request. */
    private static RequestProcessor recordingOneway(Promise<RemotingCommand> seen) {
        return (connection, request) -> {
            seen.tryComplete(request);
            return Future.succeededFuture(RemotingCommand.success(request, Buffer.buffer("must not be sent")));
        };
    }

    private static RemotingCommand rawRequest(int code, int opaque, int flag) {
        return new RemotingCommand(code, LanguageCode.JAVA, RemotingCommand.OUR_VERSION, opaque, flag, null, null,
            null, SerializeType.JSON);
    }

    private static Future<RemotingCommand> invokeOnce(Vertx vertx, ProcessorTable processors,
                                                      RemotingCommand request) {
        RemotingClient client = TestServer.client(vertx);
        return TestServer.start(vertx, processors).compose(server -> client.invoke(server.address(), request));
    }
}
