package io.vrmq.controller;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.controller.admin.ControllerAdminRouter;
import io.vrmq.controller.admin.GroupView;
import io.vrmq.controller.config.ConfigUpdater;
import io.vrmq.controller.config.PersistedSettings;
import io.vrmq.controller.config.SettingValues;
import io.vrmq.controller.election.MasterElector;
import io.vrmq.controller.election.RoleChangeNotifier;
import io.vrmq.controller.heartbeat.BrokerLiveTable;
import io.vrmq.controller.leader.DecisionSequencer;
import io.vrmq.controller.metrics.ControllerMetrics;
import io.vrmq.controller.processor.BrokerRegistrationProcessor;
import io.vrmq.controller.processor.CleanBrokerDataProcessor;
import io.vrmq.controller.processor.ControllerConfigProcessor;
import io.vrmq.controller.processor.ElectMasterProcessor;
import io.vrmq.controller.processor.HeartbeatProcessor;
import io.vrmq.controller.processor.MetadataProcessor;
import io.vrmq.controller.processor.SyncStateProcessor;
import io.vrmq.controller.raft.ControllerStateMachine;
import io.vrmq.controller.raft.RaftNode;
import io.vrmq.controller.raft.RaftStatus;
import io.vrmq.controller.state.StateCodec;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.launch.InterruptibleRole;
import io.vrmq.remoting.launch.LifecycleSteps;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.auth.ClientCredentials;
import io.vrmq.remoting.tls.AdminHttps;
import io.vrmq.remoting.tls.ClientTls;
import io.vrmq.remoting.tls.ServerTls;
import io.vrmq.remoting.tls.TlsSettings;
import io.vrmq.remoting.transport.RemotingServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One controller node: the remoting listener on this node's own entry of {@code controllerDLegerPeers} (the address
 * brokers put in controllerAddr), its member of the Raft group, the heartbeat table with its expiry scan, the
 * leader's inactive-master scan, and the admin HTTP router (default 127.0.0.1:9882). One instance: every request,
 * timer and connection close runs on this verticle's event loop, which is what orders the controller's decisions.
 *
 * <p>Start and stop: each step of the start runs through {@link LifecycleSteps}, so a stop during the start
 * ({@link #interruptStart}) ends it at the next step (the Raft start itself, blocking on a worker, is waited for); a
 * start that ends early or fails runs {@link #stop} itself, which closes Raft off the event loop. In-flight requests
 * get half of {@code shutdownGraceMs}, the launcher's bound for the whole stop (default 5 s: Raft's own close takes
 * about a second).
 */
public final class ControllerVerticle extends VerticleBase implements InterruptibleRole {
    private static final Logger log = LoggerFactory.getLogger(ControllerVerticle.class);
    /** In-flight requests get shutdownGraceMs / 2 (see the class comment). */
    private static final int IN_FLIGHT_SHARE_OF_GRACE = 2;

    private final JsonObject rawConfig;
    private final PrometheusMeterRegistry registry;
    private final LifecycleSteps steps;
    private ControllerConfig config;
    private volatile RaftNode raft;
    private RemotingServer remotingServer;
    private RemotingClient notifyClient;
    private HttpServer adminServer;
    private MasterElector elector;
    private long livenessTimer = -1;
    private long masterScanTimer = -1;
    private int remotingPort;
    private int adminPort = -1;
    private final boolean isAdminTls;

    public ControllerVerticle(JsonObject rawConfig, PrometheusMeterRegistry registry) {
        this.rawConfig = rawConfig.copy();
        this.config = ControllerConfig.from(rawConfig);
        this.registry = registry;
        this.steps = new LifecycleSteps("controller " + config.selfId());
        this.isAdminTls = AdminHttps.isEnabled(rawConfig);
        ClientCredentials.from(rawConfig);   // a bad value stops the start here
    }

    @Override
    public Future<?> start() {
        PersistedSettings store = new PersistedSettings(Path.of(config.configStorePath()));
        return steps.run("reading persisted settings", () -> vertx.executeBlocking(store::read))
            .compose(persisted -> startWith(store, persisted))
            .recover(error -> {
                log.info("controller {} start ended before it completed ({}): releasing what it opened",
                    config.selfId(), error.getMessage());
                return stop().transform(released -> Future.failedFuture(error));
            });
    }

    private Future<?> startWith(PersistedSettings store, Properties persisted) {
        List<String> skipped = new ArrayList<>();
        JsonObject settings = SettingValues.withPersisted(rawConfig, persisted, config.configBlackList(), skipped);
        if (!skipped.isEmpty()) {
            log.warn("ignoring keys in {} that cannot be changed there: {}", store.file(), skipped);
        }
        config = ControllerConfig.from(settings);
        Context context = vertx.getOrCreateContext();
        RemotingJson json = new RemotingJson();
        StateCodec codec = new StateCodec();
        LiveSettings live = new LiveSettings(config);
        BrokerLiveTable liveTable = new BrokerLiveTable(System::currentTimeMillis);
        ControllerMetrics metrics = new ControllerMetrics(registry, () -> raft != null && raft.isLeaderReady());
        ControllerStateMachine stateMachine = new ControllerStateMachine(codec, leaderId -> {
            log.info("controller {} sees Raft leader {}", config.selfId(), leaderId);
            metrics.leaderChanged();
        });
        raft = new RaftNode(config, stateMachine, codec);
        TlsSettings tls = TlsSettings.from(settings);
        // 1008 goes over TLS to an enforcing broker and signed, so that a broker that authenticates takes it.
        NetClientOptions notifyOptions = new NetClientOptions().setConnectTimeout(3_000).setTcpNoDelay(true);
        notifyClient = new RemotingClient(vertx, ClientTls.apply(tls, new NetClientOptions(notifyOptions)),
            ClientTls.fallback(tls, notifyOptions), config.limits(), ProcessorTable.empty(), RemotingObserver.NONE,
            ClientCredentials.signer(ClientCredentials.from(settings)));
        DecisionSequencer sequencer = new DecisionSequencer(context, raft, stateMachine, config.raftCommitTimeoutMs());
        elector = new MasterElector(sequencer, raft, stateMachine, liveTable, live,
            new RoleChangeNotifier(notifyClient, liveTable, json, metrics), metrics, System::currentTimeMillis,
            config.brokerHeartbeatTimeoutMs());
        ProcessorTable processors = processors(json, sequencer, liveTable, elector,
            new ConfigUpdater(vertx, settings, config, live, store, persisted));
        return steps.run("starting Raft (storage, log replay, peers)", () -> vertx.executeBlocking(() -> {
            raft.start();
            return null;
        }))
            .compose(started -> steps.run("listening", () -> ServerTls.create(vertx, tls,
                "controller").compose(serverTls -> {
                    remotingServer = new RemotingServer(vertx, new NetServerOptions().setTcpNoDelay(true)
                        .setReuseAddress(true), config.limits(), config.maxConnections(), new AtomicInteger(),
                        processors, metrics, serverTls);
                    return remotingServer.listen(config.bindAddress(), config.self().port());
                })))
            .compose(port -> {
                remotingPort = port;
                return steps.run("starting the admin API", () -> startAdmin(json, stateMachine, liveTable, metrics,
                    tls));
            })
            .compose(started -> steps.run("starting the scans", () -> {
                startTimers(live, liveTable, () -> metrics.refreshGroups(GroupView.describe(stateMachine.state(),
                    liveTable).stream().map(GroupView::sample).toList()));
                announce();
                steps.enter("serving");
                return Future.<Void>succeededFuture();
            }));
    }

    private ProcessorTable processors(RemotingJson json, DecisionSequencer sequencer, BrokerLiveTable liveTable,
                                      MasterElector elector, ConfigUpdater updater) {
        ProcessorTable.Builder table = ProcessorTable.builder();
        new HeartbeatProcessor(liveTable, config.brokerHeartbeatTimeoutMs(), elector::onBrokerInactive)
            .registerInto(table);
        new BrokerRegistrationProcessor(sequencer, liveTable, json).registerInto(table);
        new SyncStateProcessor(sequencer, liveTable, json).registerInto(table);
        new ElectMasterProcessor(elector, json).registerInto(table);
        new CleanBrokerDataProcessor(sequencer, liveTable, json).registerInto(table);
        new MetadataProcessor(config, raft).registerInto(table);
        new ControllerConfigProcessor(updater).registerInto(table);
        return table.build();
    }

    private Future<Void> startAdmin(RemotingJson json, ControllerStateMachine stateMachine, BrokerLiveTable liveTable,
                                    ControllerMetrics metrics, TlsSettings tls) {
        if (config.adminPort() < 0) {
            return Future.succeededFuture();
        }
        return AdminHttps.apply(vertx, tls, isAdminTls, new HttpServerOptions().setHost(config.adminHost()))
            .compose(options -> {
                adminServer = vertx.createHttpServer(options);
                return adminServer.requestHandler(ControllerAdminRouter.create(vertx, config, raft, stateMachine,
                    liveTable, json, registry, groups -> metrics.refreshGroups(groups.stream()
                        .map(GroupView::sample).toList())))
                    .listen(config.adminPort());
            })
            .map(server -> {
                adminPort = server.actualPort();
                return null;
            });
    }

    /** @param refreshGauges run on every liveness scan, so the per-set gauges never lag more than one interval */
    private void startTimers(LiveSettings live, BrokerLiveTable liveTable, Runnable refreshGauges) {
        armTimers(live, liveTable, refreshGauges);
        live.onIntervalChange(changed -> vertx.runOnContext(ignored -> {
            vertx.cancelTimer(livenessTimer);
            vertx.cancelTimer(masterScanTimer);
            armTimers(changed, liveTable, refreshGauges);
        }));
    }

    private void armTimers(LiveSettings live, BrokerLiveTable liveTable, Runnable refreshGauges) {
        livenessTimer = vertx.setPeriodic(live.scanNotActiveBrokerIntervalMs(), id -> {
            liveTable.expire().forEach(expired -> {
                log.warn("broker {} at {} silent for more than {} ms, inactive", expired.identity(),
                    expired.heartbeat().brokerAddr(), expired.heartbeat().heartbeatTimeoutMs());
                if (expired.connection() != null) {
                    expired.connection().close();
                }
                elector.onBrokerInactive(expired.identity());
            });
            refreshGauges.run();
        });
        masterScanTimer = vertx.setPeriodic(live.scanInactiveMasterIntervalMs(), id -> elector.scanInactiveMasters());
    }

    private void announce() {
        String admin = adminPort < 0 ? "disabled" : AdminHttps.scheme(isAdminTls) + "://" + config.adminHost() + ":"
            + adminPort;
        // The first words are RocketMQ's own, which scripts and operators wait for.
        System.out.println("The Controller Server boot success. serializeType=JSON, id " + config.selfId()
            + ", address " + config.bindAddress() + ":" + remotingPort + ", raft " + config.selfRaft().address()
            + ", peers " + config.peersText() + " admin " + admin + ", store " + config.storePath());
        System.out.flush();
    }

    @Override
    public Future<?> stop() {
        if (elector != null) {
            elector.stop();
        }
        if (livenessTimer >= 0) {
            vertx.cancelTimer(livenessTimer);
            vertx.cancelTimer(masterScanTimer);
        }
        Future<Void> admin = adminServer == null ? Future.succeededFuture() : adminServer.close();
        Future<Void> remoting = remotingServer == null ? Future.succeededFuture()
            : steps.stopStep("answering in-flight requests", () -> remotingServer.shutdown(config.shutdownGraceMs()
                / IN_FLIGHT_SHARE_OF_GRACE));
        Future<Void> client = notifyClient == null ? Future.succeededFuture() : notifyClient.close();
        return Future.all(admin, remoting, client)
            .transform(closed -> steps.stopStep("closing Raft", () -> vertx.executeBlocking(() -> {
                closeRaft();
                return null;
            })))
            .onComplete(done -> {
                steps.enter("stopped");
                log.info("controller {} stopped", config.selfId());
            });
    }

    @Override
    public void interruptStart() {
        steps.interrupt();
    }

    @Override
    public String currentStep() {
        return steps.current();
    }

    private void closeRaft() {
        if (raft == null) {
            return;
        }
        try {
            raft.close();
        } catch (java.io.IOException e) {
            log.warn("closing the Raft server of {} failed: {}", config.selfId(), e.toString());
        }
    }

    /** The bound controller-protocol port. */
    public int remotingPort() {
        return remotingPort;
    }

    /** The bound admin port, or -1 when the admin API is off. */
    public int adminPort() {
        return adminPort;
    }

    /** This node's Raft view (for tests and the admin API). */
    public RaftStatus raftStatus() {
        return raft.status();
    }

    public ControllerConfig controllerConfig() {
        return config;
    }
}
