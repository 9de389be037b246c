package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A graceful shutdown does not wait for idle clients: each connection closes once the requests it read are answered.
 * The grace here (60 s) is far beyond each test's timeout, so a shutdown that waited for it would fail the test.
 */
@ExtendWith(VertxExtension.class)
class RemotingServerShutdownIT {
    private static final long GRACE_MS = 60_000;
    private static final int HELD = 9_101;

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void anIdleConnectionClosesAtOnceSoTheShutdownEndsLongBeforeItsGrace(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);
        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(TestServer.ECHO, Map.of(),
                    null))
                .compose(answered -> client.connection(server.address()))
                .compose(connection -> server.server().shutdown(GRACE_MS).compose(shutdown -> connection.closed())))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aRequestInProcessWhenTheShutdownBeginsIsAnsweredBeforeItsConnectionCloses(Vertx vertx,
                                                                                   VertxTestContext test) {
        Promise<RemotingCommand> processing = Promise.promise();
        Promise<Void> requestArrived = Promise.promise();
        ProcessorTable processors = TestServer.standardProcessors().register(HELD, (connection, request) -> {
            requestArrived.tryComplete();
            return processing.future().map(ignored -> RemotingCommand.success(request, Map.of(), null));
        }).build();
        RemotingClient client = TestServer.client(vertx);
        TestServer.start(vertx, processors).compose(server -> {
            Future<RemotingCommand> answer = client.invoke(server.address(), RemotingCommand.request(HELD, Map.of(),
                null));
            return requestArrived.future().compose(arrived -> {
                Future<Void> shutdown = server.server().shutdown(GRACE_MS);
                processing.complete();
                return Future.all(answer, shutdown).map(both -> answer.result());
            });
        }).onComplete(test.succeeding(answer -> test.verify(() -> {
            assertEquals(ResponseCode.SUCCESS, answer.code());
            test.completeNow();
        })));
    }
}
