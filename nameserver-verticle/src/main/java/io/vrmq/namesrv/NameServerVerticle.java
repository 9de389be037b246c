package io.vrmq.namesrv;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.console.ConsoleFiles;
import io.vrmq.namesrv.admin.BrokerAdminAddresses;
import io.vrmq.namesrv.admin.NameServerAdminRouter;
import io.vrmq.namesrv.auth.NamesrvAuthConfig;
import io.vrmq.namesrv.auth.NamesrvWriteGuard;
import io.vrmq.namesrv.kv.KvConfigStore;
import io.vrmq.namesrv.metrics.NameServerMetrics;
import io.vrmq.namesrv.processor.BrokerRegistrationProcessor;
import io.vrmq.namesrv.processor.JsonWarmUp;
import io.vrmq.namesrv.processor.KvConfigProcessor;
import io.vrmq.namesrv.processor.NamesrvConfigProcessor;
import io.vrmq.namesrv.processor.RouteQueryProcessor;
import io.vrmq.namesrv.processor.TopicAdminProcessor;
import io.vrmq.namesrv.route.RemovedBroker;
import io.vrmq.namesrv.route.RouteTables;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.launch.ServingRole;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RemotingServer;
import io.vrmq.remoting.tls.AdminHttps;
import io.vrmq.remoting.tls.ServerTls;
import io.vrmq.remoting.tls.TlsSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The NameServer role: the remoting listener (default 9876), the liveness scan, and the admin HTTP router
 * (default 127.0.0.1:9880). One instance: the route tables are shared behind their own lock, so more instances
 * would add nothing but contexts. It serves ({@link #serving}) once its remoting port listens and its codecs are
 * built; the start completes when the admin API listens too, so that a broker in the same process registers
 * without waiting for the admin API.
 */
public final class NameServerVerticle extends VerticleBase implements ServingRole {
    private static final Logger log = LoggerFactory.getLogger(NameServerVerticle.class);

    private final NameServerConfig config;
    private final TlsSettings tls;
    private final boolean isAdminTls;
    private final NamesrvAuthConfig auth;
    private final JsonObject rawConfig;
    private final PrometheusMeterRegistry registry;
    private final Promise<Void> serving = Promise.promise();
    private LiveSettings settings;
    private RouteTables routes;
    private RemotingServer remotingServer;
    private HttpServer adminServer;
    private HttpClient consoleProxyClient;
    private final BrokerAdminAddresses adminAddresses = new BrokerAdminAddresses();
    private long scanTimer = -1;
    private int remotingPort;
    private int adminPort = -1;

    public NameServerVerticle(JsonObject rawConfig, PrometheusMeterRegistry registry) {
        this.rawConfig = rawConfig;
        this.config = NameServerConfig.from(rawConfig);
        this.tls = TlsSettings.from(rawConfig);
        this.isAdminTls = AdminHttps.isEnabled(rawConfig);
        this.auth = NamesrvAuthConfig.from(rawConfig);
        this.registry = registry;
    }

    @Override
    public Future<?> start() {
        RemotingJson json = new RemotingJson();
        settings = new LiveSettings(rawConfig, config);
        routes = new RouteTables(System::currentTimeMillis, settings::brokerChannelExpiredTimeMs,
            settings::supportActingMaster);
        KvConfigStore kvConfig = new KvConfigStore(vertx.fileSystem(), config.kvConfigPath());
        NameServerMetrics metrics = new NameServerMetrics(registry, routes);
        ProcessorTable processors = processors(json, kvConfig);
        // On a worker beside the start (unordered: the admin API's blocking reads must not queue behind it), so the
        // first registration finds its JSON codecs built.
        Future<Void> codecsWarm = vertx.executeBlocking(() -> {
            JsonWarmUp.run(json);
            return null;
        }, false);
        Future<Integer> listening = kvConfig.load()
            .compose(loaded -> ServerTls.create(vertx, tls, "NameServer"))
            .compose(serverTls -> {
                remotingServer = new RemotingServer(vertx, new NetServerOptions().setTcpNoDelay(true)
                    .setReuseAddress(true), config.limits(), config.maxConnections(), new AtomicInteger(), processors,
                    metrics, serverTls);
                return remotingServer.listen(config.bindAddress(), config.listenPort());
            })
            .onSuccess(port -> {
                remotingPort = port;
                settings.boundListenPort(port);
            });
        Future.all(listening, codecsWarm).onSuccess(ready -> serving.tryComplete()).onFailure(serving::tryFail);
        Future<Void> adminStarted = listening.compose(port -> startAdmin(json));
        return Future.all(serving.future(), adminStarted)
            .onFailure(serving::tryFail)
            .onSuccess(started -> {
                scanTimer = vertx.setPeriodic(settings.scanNotActiveBrokerIntervalMs(), id -> scanNotActiveBrokers());
                settings.onScanIntervalChange(intervalMs -> vertx.runOnContext(ignored -> {
                    vertx.cancelTimer(scanTimer);
                    scanTimer = vertx.setPeriodic(intervalMs, id -> scanNotActiveBrokers());
                }));
                announce();
            });
    }

    private ProcessorTable processors(RemotingJson json, KvConfigStore kvConfig) {
        ProcessorTable.Builder table = ProcessorTable.builder();
        new BrokerRegistrationProcessor(vertx, routes, kvConfig, json, settings::orderMessageEnable)
            .withAdminAddresses(adminAddresses).registerInto(table);
        new RouteQueryProcessor(routes, kvConfig, json, settings::orderMessageEnable).registerInto(table);
        new TopicAdminProcessor(routes, json).registerInto(table);
        new KvConfigProcessor(kvConfig, json).registerInto(table);
        new NamesrvConfigProcessor(settings).registerInto(table);
        if (auth.authenticationEnabled()) {
            table.guard(new NamesrvWriteGuard(auth));
            log.info("NameServer authentication on: writes must be signed by {}", auth.secretsByUser().keySet());
        }
        return table.build();
    }

    private Future<Void> startAdmin(RemotingJson json) {
        if (config.adminPort() < 0) {
            return Future.succeededFuture();
        }
        // With adminTls the brokers' admin ports are taken to be HTTPS too (one setting for the cluster).
        consoleProxyClient = vertx.createHttpClient(AdminHttps.clientOptions(tls, isAdminTls, new HttpClientOptions()
            .setConnectTimeout((int) config.limits().requestTimeoutMs())));
        // The console's files come out of the jar once, on a worker: reading them is blocking I/O.
        return AdminHttps.apply(vertx, tls, isAdminTls, new HttpServerOptions().setHost(config.adminHost()))
            .compose(options -> {
                adminServer = vertx.createHttpServer(options);
                return vertx.executeBlocking(ConsoleFiles::load);
            })
            .compose(consoleFiles -> adminServer.requestHandler(NameServerAdminRouter.create(vertx, routes, json,
                registry, adminAddresses, consoleProxyClient, config.limits().requestTimeoutMs(), consoleFiles))
                .listen(config.adminPort()))
            .map(server -> {
                adminPort = server.actualPort();
                return null;
            });
    }

    private void scanNotActiveBrokers() {
        Map<RemovedBroker, RemotingConnection> expired = routes.expireSilentBrokers();
        expired.forEach((broker, connection) -> {
            log.warn("broker expired, silent for more than its heartbeat timeout: {}", broker);
            if (connection != null) {
                connection.close();
            }
        });
    }

    private void announce() {
        String admin = adminPort < 0 ? "disabled" : AdminHttps.scheme(isAdminTls) + "://" + config.adminHost() + ":"
            + adminPort;
        // The first line is RocketMQ's own, which scripts and operators wait for.
        System.out.println("The Name Server boot success. serializeType=JSON, address " + config.bindAddress() + ":"
            + remotingPort + ", admin " + admin + ", kvConfigPath " + config.kvConfigPath());
        System.out.flush();
    }

    @Override
    public Future<?> stop() {
        if (scanTimer >= 0) {
            vertx.cancelTimer(scanTimer);
        }
        Future<Void> admin = adminServer == null ? Future.succeededFuture() : adminServer.close()
            .eventually(() -> consoleProxyClient.close());
        // In-flight requests get half of shutdownGraceMs, the launcher's bound for the whole stop.
        Future<Void> remoting = remotingServer == null ? Future.succeededFuture()
            : remotingServer.shutdown(config.shutdownGraceMs() / 2);
        return Future.all(remoting, admin)
            .onComplete(done -> log.info("name server stopped"));
    }

    @Override
    public Future<Void> serving() {
        return serving.future();
    }

    /** The bound remoting port (useful with listenPort 0). */
    public int remotingPort() {
        return remotingPort;
    }

    /** The bound admin port, or -1 when the admin API is off. */
    public int adminPort() {
        return adminPort;
    }
}
