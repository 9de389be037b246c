package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServerOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.vrmq.remoting.transport.TestServer.CLOSES_CONNECTION;
import static io.vrmq.remoting.transport.TestServer.ECHO;
import static io.vrmq.remoting.transport.TestServer.NEVER_ANSWERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The calling side: timeouts, closes, connection reuse and reconnects, the blocking facade, pending limits. */
@ExtendWith(VertxExtension.class)
class RemotingClientIT {
    private static final long SHORT_TIMEOUT_MS = 200;

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aCallFailsWithRequestTimeoutWhenTheProcessorNeverAnswers(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(NEVER_ANSWERS),
                SHORT_TIMEOUT_MS))
            .onComplete(test.failing(error -> test.verify(() -> {
                assertInstanceOf(RequestTimeoutException.class, error);
                assertTrue(error.getMessage().contains(String.valueOf(NEVER_ANSWERS)), error.getMessage());
                assertTrue(error.getMessage().contains(SHORT_TIMEOUT_MS + " ms"), error.getMessage());
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void theConnectionStillServesAfterACallTimedOut(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address()))
            .compose(connection -> connection.invoke(RemotingCommand.request(NEVER_ANSWERS), SHORT_TIMEOUT_MS)
                .transform(timedOut -> {
                    assertInstanceOf(RequestTimeoutException.class, timedOut.cause());
                    return connection.invoke(RemotingCommand.request(ECHO), 5_000);
                }))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void pendingCallsFailWithConnectionClosedWhenTheServerCloses(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address()))
            .compose(connection -> {
                List<Future<RemotingCommand>> calls = List.of(
                    connection.invoke(RemotingCommand.request(NEVER_ANSWERS), 5_000),
                    connection.invoke(RemotingCommand.request(NEVER_ANSWERS), 5_000),
                    connection.invoke(RemotingCommand.request(NEVER_ANSWERS), 5_000),
                    connection.invoke(RemotingCommand.request(CLOSES_CONNECTION), 5_000));
                return Future.join(calls).transform(joined -> Future.succeededFuture(calls));
            })
            .map(calls -> {
                for (Future<RemotingCommand> call : calls) {
                    assertTrue(call.failed(), "call completed: " + call.result());
                    assertInstanceOf(ConnectionClosedException.class, call.cause());
                }
                return calls;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aCallOnAClosedConnectionFailsWithConnectionClosed(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address()))
            .compose(connection -> connection.close().compose(closing -> connection.closed())
                .compose(closed -> connection.invoke(RemotingCommand.request(ECHO), 5_000)))
            .onComplete(test.failing(error -> test.verify(() -> {
                assertInstanceOf(ConnectionClosedException.class, error);
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void theClientReusesOneConnectionPerAddress(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address())
                .compose(first -> client.invoke(server.address(), RemotingCommand.request(ECHO))
                    .compose(echoed -> client.connection(server.address()))
                    .map(second -> {
                        assertSame(first, second);
                        return second;
                    })))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void theClientReconnectsAfterTheServerClosesTheConnection(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address())
                .compose(first -> client.invoke(server.address(), RemotingCommand.request(CLOSES_CONNECTION))
                    .transform(closedCall -> first.closed())
                    .compose(closed -> client.connection(server.address()))
                    .compose(second -> {
                        assertNotSame(first, second);
                        assertFalse(second.isClosed());
                        return client.invoke(server.address(), RemotingCommand.request(ECHO));
                    })))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void theClientReconnectsAfterItDisconnects(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address())
                .compose(first -> client.disconnect(server.address())
                    .compose(disconnected -> first.closed())
                    .compose(closed -> client.connection(server.address()))
                    .map(second -> {
                        assertNotSame(first, second);
                        assertTrue(first.isClosed());
                        return second;
                    }))
                .compose(second -> second.invoke(RemotingCommand.request(ECHO), 5_000)))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aFailedConnectIsForgottenSoTheNextCallConnectsAgain(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);
        // Bind a port and release it: nothing listens there until the server below takes the same port.
        vertx.createNetServer(new NetServerOptions().setHost(TestServer.HOST)).connectHandler(socket -> { })
            .listen(0, TestServer.HOST)
            .compose(probe -> {
                int port = probe.actualPort();
                return probe.close().map(closed -> port);
            })
            .compose(port -> {
                String address = TestServer.HOST + ":" + port;
                return client.invoke(address, RemotingCommand.request(ECHO))
                    .transform(refused -> {
                        assertTrue(refused.failed(), "nothing listens yet");
                        return TestServer.start(vertx, TestServer.standardProcessors().build(),
                            TestServer.DEFAULT_MAX_CONNECTIONS, port);
                    })
                    .compose(server -> client.invoke(address, RemotingCommand.request(ECHO)));
            })
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aCallBeyondMaxPendingRequestsFailsWithSystemBusy(Vertx vertx, VertxTestContext test) {
        RemotingLimits twoPending = new RemotingLimits(TestServer.LIMITS.maxFrameBytes(),
            TestServer.LIMITS.maxHeaderBytes(), TestServer.LIMITS.requestTimeoutMs(), 2);
        RemotingClient client = new RemotingClient(vertx, twoPending);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> client.connection(server.address()))
            .compose(connection -> {
                connection.invoke(RemotingCommand.request(NEVER_ANSWERS), 5_000);
                connection.invoke(RemotingCommand.request(NEVER_ANSWERS), 5_000);
                return connection.invoke(RemotingCommand.request(NEVER_ANSWERS), 5_000);
            })
            .onComplete(test.failing(error -> test.verify(() -> {
                RemotingCommandException busy = assertInstanceOf(RemotingCommandException.class, error);
                assertEquals(ResponseCode.SYSTEM_BUSY, busy.responseCode());
                assertTrue(busy.getMessage().contains("maxPendingRequests 2"), busy.getMessage());
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void invokeSyncRefusesToBlockAnEventLoop(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        vertx.runOnContext(ignored -> test.verify(() -> {
            IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> client.invokeSync("127.0.0.1:1", RemotingCommand.request(ECHO), 1_000));
            assertTrue(error.getMessage().contains("event loop"), error.getMessage());
            test.completeNow();
        }));
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void invokeSyncReturnsTheResponseOnAWorkerThread(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> vertx.executeBlocking(() -> client.invokeSync(server.address(),
                RemotingCommand.request(ECHO), 5_000)))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                return response;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void anAddressWithoutPortFailsTheCall(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        client.invoke("localhost", RemotingCommand.request(ECHO))
            .onComplete(test.failing(error -> test.verify(() -> {
                assertInstanceOf(IllegalArgumentException.class, error);
                assertTrue(error.getMessage().contains("localhost"), error.getMessage());
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void anAddressWithANonNumericPortFailsTheCall(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        client.invoke("127.0.0.1:ten", RemotingCommand.request(ECHO))
            .onComplete(test.failing(error -> test.verify(() -> {
                assertInstanceOf(IllegalArgumentException.class, error);
                assertTrue(error.getMessage().contains("127.0.0.1:ten"), error.getMessage());
                test.completeNow();
            })));
    }

    /**
     * A connect that fails at once (here: no port to parse) is not kept: the next call tries again instead of getting
     * the old failure, and nothing throws from inside the connection map.
     */
    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aConnectThatFailsAtOnceIsNotKept(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);
        Future<RemotingConnection> first = client.connection("127.0.0.1:no-port");
        Future<RemotingConnection> second = client.connection("127.0.0.1:no-port");

        test.verify(() -> {
            assertTrue(first.failed());
            assertTrue(second.failed());
            assertNotSame(first, second, "the failed attempt was dropped and a new one made");
        });
        test.completeNow();
    }

    /** A refused connection is dropped once it failed, so the next call connects anew (here, to a server now up). */
    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aRefusedConnectionIsRetriedByTheNextCall(Vertx vertx, VertxTestContext test) {
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, TestServer.standardProcessors().build())
            .compose(server -> server.server().shutdown(0).map(closed -> server.address()))
            .compose(address -> client.invoke(address, RemotingCommand.request(ECHO), 2_000)
                .transform(refused -> {
                    test.verify(() -> assertTrue(refused.failed(), "nobody listens"));
                    return client.connection(address).transform(again -> Future.succeededFuture(again.failed()));
                }))
            .onComplete(test.succeeding(isRefusedAgain -> test.verify(() -> {
                assertTrue(isRefusedAgain, "a new attempt, refused again rather than a cached future");
                test.completeNow();
            })));
    }
}
