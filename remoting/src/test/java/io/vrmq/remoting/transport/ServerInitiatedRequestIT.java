package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker → client direction: a server sends requests over a connection a client opened, and the client's
 * {@link ProcessorTable} answers them, while the client's own calls on the same connection go on.
 */
@ExtendWith(VertxExtension.class)
class ServerInitiatedRequestIT {
    private static final int ASK_THE_CLIENT = 9_201;
    private static final int NOTIFY_THE_CLIENT = 9_202;
    private static final int ASK_THE_CLIENT_SOMETHING_UNKNOWN = 9_203;

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void theClientsProcessorTableAnswersARequestTheServerSends(Vertx vertx, VertxTestContext test) {
        ProcessorTable serverProcessors = ProcessorTable.builder()
            // While answering the client, ask the client something over the same connection; relay its answer.
            .register(ASK_THE_CLIENT, (connection, request) -> connection.invoke(
                    RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO,
                        Map.of("consumerGroup", "CG", "clientId", request.ext("clientId")), null), 5_000)
                .map(clientAnswer -> RemotingCommand.success(request, Map.of(
                    "clientAnswerCode", String.valueOf(clientAnswer.code()),
                    "clientAnswer", clientAnswer.ext("runningInfo")), null)))
            .build();
        ProcessorTable clientProcessors = ProcessorTable.builder()
            .register(RequestCode.GET_CONSUMER_RUNNING_INFO, (connection, request) -> Future.succeededFuture(
                RemotingCommand.success(request, Map.of("runningInfo",
                    request.ext("clientId") + " runs group " + request.ext("consumerGroup")), null)))
            .build();
        RemotingClient client = TestServer.client(vertx, clientProcessors);

        TestServer.start(vertx, serverProcessors)
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(ASK_THE_CLIENT,
                Map.of("clientId", "127.0.0.1@42"), null)))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                assertEquals(String.valueOf(ResponseCode.SUCCESS), response.ext("clientAnswerCode"));
                assertEquals("127.0.0.1@42 runs group CG", response.ext("clientAnswer"));
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aOnewayRequestFromTheServerReachesTheClientsProcessor(Vertx vertx, VertxTestContext test) {
        Promise<RemotingCommand> notified = Promise.promise();
        ProcessorTable serverProcessors = ProcessorTable.builder()
            .register(NOTIFY_THE_CLIENT, (connection, request) -> connection.invokeOneway(
                    RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, Map.of("consumerGroup", "CG"),
                        null))
                .map(sent -> RemotingCommand.success(request, null)))
            .build();
        ProcessorTable clientProcessors = ProcessorTable.builder()
            .register(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, (connection, request) -> {
                notified.tryComplete(request);
                return Future.succeededFuture();
            })
            .build();
        RemotingClient client = TestServer.client(vertx, clientProcessors);

        TestServer.start(vertx, serverProcessors)
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(NOTIFY_THE_CLIENT)))
            .compose(response -> notified.future())
            .map(request -> {
                assertTrue(request.isOneway());
                assertEquals("CG", request.ext("consumerGroup"));
                return request;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void theClientAnswersAnUnknownServerRequestWithRequestCodeNotSupported(Vertx vertx, VertxTestContext test) {
        ProcessorTable serverProcessors = ProcessorTable.builder()
            .register(ASK_THE_CLIENT_SOMETHING_UNKNOWN, (connection, request) -> connection.invoke(
                    RemotingCommand.request(RequestCode.CONSUME_MESSAGE_DIRECTLY), 5_000)
                .map(clientAnswer -> RemotingCommand.success(request, Map.of(
                    "clientAnswerCode", String.valueOf(clientAnswer.code()),
                    "clientRemark", clientAnswer.remark()), null)))
            .build();
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, serverProcessors)
            .compose(server -> client.invoke(server.address(),
                RemotingCommand.request(ASK_THE_CLIENT_SOMETHING_UNKNOWN)))
            .map(response -> {
                assertEquals(String.valueOf(ResponseCode.REQUEST_CODE_NOT_SUPPORTED), response.ext("clientAnswerCode"));
                assertEquals(" request type " + RequestCode.CONSUME_MESSAGE_DIRECTLY + " not supported",
                    response.ext("clientRemark"));
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
