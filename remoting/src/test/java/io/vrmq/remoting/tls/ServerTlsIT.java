package io.vrmq.remoting.tls;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One port, plain and TLS clients: permissive serves both, enforcing only TLS (test mode: self-signed). */
@ExtendWith(VertxExtension.class)
class ServerTlsIT {
    private static final String HOST = "127.0.0.1";
    private static final int ECHO = 9_001;
    private static final RemotingLimits LIMITS = RemotingLimits.defaults();

    private static Future<Integer> listen(Vertx vertx, String mode) {
        return listen(vertx, mode, 0, new ArrayList<>());
    }

    /** On {@code port} (0: any); the server is added to {@code servers}, to be closed by the test. */
    private static Future<Integer> listen(Vertx vertx, String mode, int port, List<RemotingServer> servers) {
        TlsSettings settings = TlsSettings.from(new JsonObject().put(TlsSettings.SERVER_MODE, mode)
            .put(TlsSettings.CONFIG_FILE, ""));
        ProcessorTable processors = ProcessorTable.builder().register(ECHO, (connection, request) ->
            Future.succeededFuture(RemotingCommand.success(request, Map.of("echo", "yes"), null))).build();
        return ServerTls.create(vertx, settings, "test").compose(tls -> {
            RemotingServer server = new RemotingServer(vertx, new NetServerOptions().setHost(HOST), LIMITS, 16,
                new AtomicInteger(), processors, RemotingObserver.NONE, tls);
            servers.add(server);
            return server.listen(HOST, port);
        });
    }

    private static RemotingClient client(Vertx vertx, boolean isTls) {
        TlsSettings settings = TlsSettings.from(new JsonObject().put(TlsSettings.ENABLE, isTls)
            .put(TlsSettings.CONFIG_FILE, ""));
        return new RemotingClient(vertx, ClientTls.apply(settings, new NetClientOptions().setConnectTimeout(3_000)),
            LIMITS, ProcessorTable.empty(), RemotingObserver.NONE);
    }

    /** A plain client that turns to TLS for an address whose server refuses plain connections. */
    private static RemotingClient fallbackClient(Vertx vertx) {
        TlsSettings plain = TlsSettings.from(new JsonObject().put(TlsSettings.CONFIG_FILE, ""));
        NetClientOptions options = new NetClientOptions().setConnectTimeout(3_000);
        return new RemotingClient(vertx, ClientTls.apply(plain, new NetClientOptions(options)),
            ClientTls.fallback(plain, options), LIMITS, ProcessorTable.empty(), RemotingObserver.NONE,
            request -> request);
    }

    private static Future<String> echo(Vertx vertx, boolean isTls, int port) {
        return client(vertx, isTls).invoke(HOST + ":" + port, RemotingCommand.request(ECHO), 3_000)
            .map(response -> response.code() == ResponseCode.SUCCESS ? response.ext("echo") : "code "
                + response.code());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void permissiveServesPlainAndTlsClientsOnOnePort(Vertx vertx, VertxTestContext test) {
        listen(vertx, "permissive")
            .compose(port -> Future.all(echo(vertx, false, port), echo(vertx, true, port), echo(vertx, true, port)))
            .onComplete(test.succeeding(answers -> test.verify(() -> {
                assertEquals("yes", answers.resultAt(0));
                assertEquals("yes", answers.resultAt(1));
                assertEquals("yes", answers.resultAt(2));
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void enforcingServesTlsAndClosesAPlainConnectionWithoutAnswer(Vertx vertx, VertxTestContext test) {
        listen(vertx, "enforcing")
            .compose(port -> echo(vertx, true, port).compose(tlsAnswer -> echo(vertx, false, port)
                .transform(plain -> Future.succeededFuture(Map.of("tls", tlsAnswer, "plainFailed", plain.failed())))))
            .onComplete(test.succeeding(outcome -> test.verify(() -> {
                assertEquals("yes", outcome.get("tls"));
                assertTrue((Boolean) outcome.get("plainFailed"), "a plain request got an answer");
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void disabledServesPlainOnly(Vertx vertx, VertxTestContext test) {
        listen(vertx, "disabled")
            .compose(port -> echo(vertx, false, port).compose(plainAnswer -> echo(vertx, true, port)
                .transform(tls -> Future.succeededFuture(Map.of("plain", plainAnswer, "tlsFailed", tls.failed())))))
            .onComplete(test.succeeding(outcome -> test.verify(() -> {
                assertEquals("yes", outcome.get("plain"));
                assertTrue((Boolean) outcome.get("tlsFailed"), "a TLS request got an answer");
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aPlainClientWithTlsFallbackReachesAnEnforcingServerAndStaysOnTls(Vertx vertx, VertxTestContext test) {
        RemotingClient client = fallbackClient(vertx);
        listen(vertx, "enforcing")
            .compose(port -> client.invoke(HOST + ":" + port, RemotingCommand.request(ECHO), 3_000)
                .compose(first -> client.invoke(HOST + ":" + port, RemotingCommand.request(ECHO), 3_000)
                    .compose(second -> client.connection(HOST + ":" + port).map(connection -> Map.of(
                        "first", first.ext("echo"), "second", second.ext("echo"), "tls", connection.isSsl())))))
            .onComplete(test.succeeding(answers -> test.verify(() -> {
                assertEquals("yes", answers.get("first"), "the request that found out TLS is needed was not resent");
                assertEquals("yes", answers.get("second"));
                assertEquals(true, answers.get("tls"));
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aPermissiveServerKeepsAPlainClientWithTlsFallbackOnPlain(Vertx vertx, VertxTestContext test) {
        RemotingClient client = fallbackClient(vertx);
        listen(vertx, "permissive")
            .compose(port -> client.invoke(HOST + ":" + port, RemotingCommand.request(ECHO), 3_000)
                .compose(answer -> client.connection(HOST + ":" + port).map(connection -> Map.of("echo",
                    answer.ext("echo"), "tls", connection.isSsl()))))
            .onComplete(test.succeeding(outcome -> test.verify(() -> {
                assertEquals("yes", outcome.get("echo"));
                assertEquals(false, outcome.get("tls"), "a permissive server was reached over TLS");
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void anAddressTurnedToTlsGoesBackToPlainWhenItsServerNoLongerTakesTls(Vertx vertx, VertxTestContext test) {
        RemotingClient client = fallbackClient(vertx);
        List<RemotingServer> enforcing = new ArrayList<>();
        listen(vertx, "enforcing", 0, enforcing)
            .compose(port -> client.invoke(HOST + ":" + port, RemotingCommand.request(ECHO), 3_000)
                .compose(overTls -> client.disconnect(HOST + ":" + port))
                .compose(closed -> enforcing.get(0).shutdown(0))
                .compose(closed -> listen(vertx, "disabled", port, new ArrayList<>()))
                .compose(samePort -> client.invoke(HOST + ":" + port, RemotingCommand.request(ECHO), 3_000))
                .compose(answer -> client.connection(HOST + ":" + port).map(connection -> Map.of("echo",
                    answer.ext("echo"), "tls", connection.isSsl()))))
            .onComplete(test.succeeding(outcome -> test.verify(() -> {
                assertEquals("yes", outcome.get("echo"), "the plain server was not reached again");
                assertEquals(false, outcome.get("tls"));
                test.completeNow();
            })));
    }
}
