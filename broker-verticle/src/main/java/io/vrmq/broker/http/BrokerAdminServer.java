package io.vrmq.broker.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.metrics.JvmMeters;
import io.vrmq.broker.metrics.StoreGauges;
import io.vrmq.broker.auth.server.AuthAdmin;
import io.vrmq.console.ConsoleFiles;
import io.vrmq.remoting.tls.AdminHttps;
import io.vrmq.remoting.tls.TlsSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * The broker's admin HTTP server on adminHost:adminPort (adminPort -1: off; 0: any free port, see {@link #port}),
 * with the meters it serves: the store gauges, the JVM meters, and the once-a-second sampling behind the put/get
 * rates. Owned by the broker verticle: {@link #start} and {@link #stop} run on its context.
 */
public final class BrokerAdminServer {
    private static final Logger log = LoggerFactory.getLogger(BrokerAdminServer.class);
    /** How often the put/get totals are sampled for the rate windows. */
    public static final int DISABLED_PORT = -1;

    private final Vertx vertx;
    private final BrokerContext broker;
    private final PrometheusMeterRegistry registry;
    private final long bootTimestampMs;
    private final AuthAdmin auth;
    private HttpServer server;
    private JvmMeters jvmMeters;
    private int port = DISABLED_PORT;
    private Consumer<Router> extraRoutes = router -> { };
    private TlsSettings tls = TlsSettings.defaults();
    private boolean isHttps;

    public BrokerAdminServer(Vertx vertx, BrokerContext broker, PrometheusMeterRegistry registry,
                             long bootTimestampMs) {
        this(vertx, broker, registry, bootTimestampMs, null);
    }

    /** @param auth the users and ACLs the API shows and edits, or null for none */
    public BrokerAdminServer(Vertx vertx, BrokerContext broker, PrometheusMeterRegistry registry,
                             long bootTimestampMs, AuthAdmin auth) {
        this.auth = auth;
        this.vertx = vertx;
        this.broker = broker;
        this.registry = registry;
        this.bootTimestampMs = bootTimestampMs;
    }

    /** Routes of other parts of the broker (the gRPC endpoint's), mounted beside the built-in ones at start. */
    public BrokerAdminServer withRoutes(Consumer<Router> routes) {
        this.extraRoutes = routes;
        return this;
    }

    /** HTTPS on the admin port ({@link AdminHttps}: adminTls, with the remoting ports' certificate settings). */
    public BrokerAdminServer withHttps(TlsSettings tls, boolean isEnabled) {
        this.tls = tls;
        this.isHttps = isEnabled;
        return this;
    }

    /** Completes with the bound port, or {@link #DISABLED_PORT} when adminPort is -1. */
    public Future<Integer> start() {
        if (broker.config().adminPort() == DISABLED_PORT) {
            return Future.succeededFuture(DISABLED_PORT);
        }
        jvmMeters = JvmMeters.bindTo(registry);
        StoreGauges storeGauges = new StoreGauges(broker, registry);
        // The console's files come out of the jar once, on a worker: reading them is blocking I/O.
        return AdminHttps.apply(vertx, tls, isHttps, new HttpServerOptions().setHost(broker.config().adminHost()))
            .compose(options -> {
                server = vertx.createHttpServer(options);
                return vertx.executeBlocking(ConsoleFiles::load);
            })
            .compose(consoleFiles -> {
                Router router = BrokerAdminRouter.create(vertx, broker, registry, storeGauges, bootTimestampMs,
                    consoleFiles, auth);
                extraRoutes.accept(router);
                return server.requestHandler(router).listen(broker.config().adminPort());
            })
            .map(bound -> {
                port = bound.actualPort();
                log.info("broker admin API listening on {}://{}:{}", AdminHttps.scheme(isHttps),
                    broker.config().adminHost(), port);
                return port;
            });
    }

    /**
     * "host:port" where the console of a NameServer on this machine or another reaches this admin API: adminHost,
     * or brokerIP1 when adminHost is a wildcard.
     */
    public String announcedAddr() {
        String host = broker.config().adminHost();
        boolean isWildcard = host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
        return (isWildcard ? broker.config().brokerIP1() : host) + ":" + port;
    }

    /** The bound port, or {@link #DISABLED_PORT}. */
    public int port() {
        return port;
    }

    public Future<Void> stop() {
        if (jvmMeters != null) {
            jvmMeters.close();
        }
        return server == null ? Future.succeededFuture() : server.close();
    }
}
