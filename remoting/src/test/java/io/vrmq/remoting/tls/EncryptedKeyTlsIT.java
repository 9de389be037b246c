package io.vrmq.remoting.tls;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Certificates from files with encrypted keys (tls.server.keyPassword, tls.client.keyPassword): an enforcing server
 * that requires a client certificate serves a client whose key is encrypted too; the admin HTTPS option (adminTls)
 * serves with an encrypted key file and, in test mode, with a self-signed certificate.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EncryptedKeyTlsIT {
    private static final String HOST = "127.0.0.1";
    private static final int ECHO = 9_002;
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    @Test
    void enforcingServerWithEncryptedKeysServesAClientWithAnEncryptedKey(@TempDir Path dir) throws Exception {
        TestKeyFiles server = TestKeyFiles.write(dir, "server", "server-pass");
        TestKeyFiles client = TestKeyFiles.write(dir, "client", "client-pass");
        TlsSettings serverSettings = TlsSettings.from(new JsonObject().put(TlsSettings.CONFIG_FILE, "")
            .put(TlsSettings.SERVER_MODE, "enforcing").put(TlsSettings.TEST_MODE_ENABLE, false)
            .put(TlsSettings.SERVER_CERT_PATH, server.certPath().toString())
            .put(TlsSettings.SERVER_KEY_PATH, server.keyPath().toString())
            .put(TlsSettings.SERVER_KEY_PASSWORD, "server-pass").put(TlsSettings.SERVER_NEED_CLIENT_AUTH, "require"));
        ProcessorTable processors = ProcessorTable.builder().register(ECHO, (connection, request) ->
            Future.succeededFuture(RemotingCommand.success(request, Map.of("echo", "yes"), null))).build();
        int port = ServerTls.create(vertx, serverSettings, "test").compose(tls -> new RemotingServer(vertx,
            new NetServerOptions().setHost(HOST), RemotingLimits.defaults(), 16, new AtomicInteger(), processors,
            RemotingObserver.NONE, tls).listen(HOST, 0)).await();

        TlsSettings clientSettings = TlsSettings.from(new JsonObject().put(TlsSettings.CONFIG_FILE, "")
            .put(TlsSettings.ENABLE, true).put(TlsSettings.TEST_MODE_ENABLE, false)
            .put(TlsSettings.SERVER_MODE, "disabled")
            .put(TlsSettings.CLIENT_CERT_PATH, client.certPath().toString())
            .put(TlsSettings.CLIENT_KEY_PATH, client.keyPath().toString())
            .put(TlsSettings.CLIENT_KEY_PASSWORD, "client-pass"));
        RemotingClient remoting = new RemotingClient(vertx, ClientTls.apply(clientSettings, new NetClientOptions()
            .setConnectTimeout(3_000)), RemotingLimits.defaults(), ProcessorTable.empty(), RemotingObserver.NONE);
        RemotingCommand answer = remoting.invoke(HOST + ":" + port, RemotingCommand.request(ECHO), 5_000).await();
        assertEquals(ResponseCode.SUCCESS, answer.code());
        assertEquals("yes", answer.ext("echo"));
    }

    @Test
    void adminHttpsServesWithAnEncryptedKeyFileAndInTestMode(@TempDir Path dir) throws Exception {
        TestKeyFiles server = TestKeyFiles.write(dir, "admin", "admin-pass");
        TlsSettings fromFiles = TlsSettings.from(new JsonObject().put(TlsSettings.CONFIG_FILE, "")
            .put(TlsSettings.TEST_MODE_ENABLE, false).put(TlsSettings.SERVER_CERT_PATH, server.certPath().toString())
            .put(TlsSettings.SERVER_KEY_PATH, server.keyPath().toString())
            .put(TlsSettings.SERVER_KEY_PASSWORD, "admin-pass"));
        assertEquals("ok", fetchOverHttps(fromFiles));
        assertEquals("ok", fetchOverHttps(TlsSettings.defaults()));
    }

    private String fetchOverHttps(TlsSettings settings) {
        int port = AdminHttps.apply(vertx, settings, true, new HttpServerOptions().setHost(HOST))
            .compose(options -> vertx.createHttpServer(options).requestHandler(request -> request.response()
                .end("ok")).listen(0))
            .map(server -> server.actualPort()).await();
        return vertx.createHttpClient(new HttpClientOptions().setSsl(true).setTrustAll(true).setVerifyHost(false))
            .request(HttpMethod.GET, port, HOST, "/")
            .compose(request -> request.send().compose(response -> response.body()))
            .map(body -> body.toString()).await();
    }
}
