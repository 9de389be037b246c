package io.vrmq.namesrv;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A {@link NameServerVerticle} deployed for one test: the embedded defaults with both ports 0 on 127.0.0.1, the KV
 * file in the test's temp directory and a short shutdown grace. Owned by the test that started it; Vert.x undeploys
 * it when the test's Vertx closes.
 */
final class TestNameServer {
    static final String HOST = "127.0.0.1";
    /** Short: a test undeploys with its own client connection still open, and the grace would be waited out. */
    private static final long SHUTDOWN_GRACE_MS = 100;

    private final Vertx vertx;
    private final NameServerVerticle verticle;
    private final PrometheusMeterRegistry registry;
    private final String deploymentId;

    private TestNameServer(Vertx vertx, NameServerVerticle verticle, PrometheusMeterRegistry registry,
                           String deploymentId) {
        this.vertx = vertx;
        this.verticle = verticle;
        this.registry = registry;
        this.deploymentId = deploymentId;
    }

    /** The defaults resource, as the launcher would read it with no config file and no overrides. */
    static JsonObject defaults() {
        try (InputStream in = TestNameServer.class.getClassLoader()
            .getResourceAsStream(NameServerMain.DEFAULTS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + NameServerMain.DEFAULTS_RESOURCE);
            }
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The defaults, overridden for a test: ephemeral ports on loopback, KV file in {@code dir}. */
    static JsonObject config(Path dir) {
        return defaults()
            .put("listenPort", 0)
            .put("bindAddress", HOST)
            .put("adminPort", 0)
            .put("adminHost", HOST)
            .put("kvConfigPath", dir.resolve("namesrv").resolve("kvConfig.json").toString())
            .put("shutdownGraceMs", SHUTDOWN_GRACE_MS);
    }

    static Future<TestNameServer> start(Vertx vertx, JsonObject config) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        NameServerVerticle verticle = new NameServerVerticle(config, registry);
        return vertx.deployVerticle(verticle)
            .map(id -> new TestNameServer(vertx, verticle, registry, id));
    }

    /** "127.0.0.1:port" of the remoting listener, as RemotingClient takes it. */
    String address() {
        return HOST + ":" + verticle.remotingPort();
    }

    int remotingPort() {
        return verticle.remotingPort();
    }

    int adminPort() {
        return verticle.adminPort();
    }

    Future<Void> stop() {
        return vertx.undeploy(deploymentId);
    }
}
