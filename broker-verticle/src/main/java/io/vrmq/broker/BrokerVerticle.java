package io.vrmq.broker;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.broker.auth.AuthConfig;
import io.vrmq.broker.auth.server.AuthService;
import io.vrmq.broker.client.ClientRegistry;
import io.vrmq.broker.feature.MessageFeatures;
import io.vrmq.broker.group.SubscriptionGroupTable;
import io.vrmq.broker.grpc.GrpcEndpoint;
import io.vrmq.broker.ha.HaLinkTls;
import io.vrmq.broker.ha.HaServer;
import io.vrmq.broker.ha.MasterReplication;
import io.vrmq.broker.ha.Replication;
import io.vrmq.broker.ha.SlaveReplication;
import io.vrmq.broker.ha.SlaveSynchronizer;
import io.vrmq.broker.http.BrokerAdminServer;
import io.vrmq.broker.longpoll.PullHoldService;
import io.vrmq.broker.loops.ConnectionLoops;
import io.vrmq.broker.loops.HomeContextProcessors;
import io.vrmq.broker.loops.HotPathConfig;
import io.vrmq.broker.metrics.BrokerMetrics;
import io.vrmq.broker.namesrv.BrokerIdentity;
import io.vrmq.broker.namesrv.NameServerRegistrar;
import io.vrmq.broker.namesrv.RegistrationConfig;
import io.vrmq.broker.offset.ConsumerOffsetTable;
import io.vrmq.broker.controller.ControllerModeBroker;
import io.vrmq.broker.controller.ControllerModeProcessor;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.broker.pop.PopConfig;
import io.vrmq.broker.pop.PopInflight;
import io.vrmq.broker.pop.PopServices;
import io.vrmq.broker.pop.RequestModeTable;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.role.RoleState;
import io.vrmq.broker.schedule.DelayOffsetFile;
import io.vrmq.broker.store.ScheduleTagsCode;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.broker.store.StoreQueueDeclarer;
import io.vrmq.broker.topic.SystemTopics;
import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.launch.InterruptibleRole;
import io.vrmq.remoting.launch.LifecycleSteps;
import io.vrmq.remoting.launch.StartsBeside;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import io.vrmq.remoting.tls.AdminHttps;
import io.vrmq.remoting.tls.ClientTls;
import io.vrmq.remoting.tls.ServerTls;
import io.vrmq.remoting.tls.TlsSettings;
import io.vrmq.store.DispatchListener;
import io.vrmq.store.MessageStore;
import io.vrmq.store.StoreConfig;
import io.vrmq.store.StoreOptions;
import io.vrmq.store.epoch.EpochFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The broker role: opens the store (recovery runs on a worker thread), loads topics, groups and offsets, listens on
 * listenPort and on the fast channel (listenPort - 2), registers with every NameServer, and runs the periodic tasks
 * (re-registration, offset persistence, silent-client expiry). One instance: processors share thread-safe tables,
 * held pulls live on this verticle's event loop. Client connections are spread over serverSelectorThreads event loops
 * ({@link ConnectionLoops}); only sends and pulls run on the extra ones ({@link HomeContextProcessors}).
 *
 * <p>Start and stop: every step of the start runs through {@link LifecycleSteps}, so a stop that comes during the
 * start ({@link #interruptStart}) ends it at the next step, or inside the store recovery between two batches of
 * records; a start that ends early or fails runs {@link #stop} itself (Vert.x does not) so that a store it opened is
 * closed cleanly and nothing stays half-written. The stop gives the NameServer unregistration a quarter and in-flight
 * requests half of {@code shutdownGraceMs}, the launcher's bound for the whole stop, keeping the rest for persisting
 * tables and closing the store.
 *
 * <p>In one process with its NameServer (the standalone jar) the broker starts beside it ({@link #startBeside}): it
 * loads its tables, opens its store and listens while the NameServer starts, and registers once that serves.
 */
public final class BrokerVerticle extends VerticleBase implements InterruptibleRole, StartsBeside {
    private static final Logger log = LoggerFactory.getLogger(BrokerVerticle.class);
    private static final long REGISTER_RETRY_FIRST_MS = 500;
    private static final long SLAVE_FIND_MASTER_INTERVAL_MS = 3_000;
    /** Unregistration gets shutdownGraceMs / 4, in-flight requests shutdownGraceMs / 2 (see the class comment). */
    private static final int UNREGISTER_SHARE_OF_GRACE = 4;
    private static final int IN_FLIGHT_SHARE_OF_GRACE = 2;

    private final JsonObject rawConfig;
    private final BrokerConfig config;
    private final int listenPort;
    private final int fastPort;
    private final int haPort;
    private final List<RemotingServer> servers = new ArrayList<>();
    private final List<Long> timers = new ArrayList<>();
    private final PrometheusMeterRegistry registry;
    private final LifecycleSteps steps = new LifecycleSteps("broker");
    private PullHoldService holds;
    private StoreAccess storeAccess;
    private BrokerAdminServer adminServer;
    private BrokerContext context;
    private NameServerRegistrar registrar;
    private RemotingClient namesrvClient;
    private MasterServices masterServices;
    private HaServer haServer;
    private ControllerModeBroker controllerMode;
    private boolean isStopping;
    private volatile PopServices pop;
    private RequestModeTable requestModes;
    private DispatchListener dispatchListener;
    private AuthService auth;
    private final TlsSettings tls;
    private final HaLinkTls haTls;
    private ServerTls serverTls;
    private GrpcEndpoint grpcEndpoint;
    private PopConfig popConfig;
    private final HotPathConfig hotPath;
    private Future<Void> earlierRolesServing = Future.succeededFuture();

    /** A broker with its own meter registry (tests; the admin API serves it at /metrics). */
    public BrokerVerticle(JsonObject rawConfig) {
        this(rawConfig, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    /** A broker whose meters go to {@code registry}, which Vert.x's own meters may share (BrokerMain). */
    public BrokerVerticle(JsonObject rawConfig, PrometheusMeterRegistry registry) {
        this.registry = registry;
        this.rawConfig = rawConfig;
        this.config = BrokerConfig.from(rawConfig);
        AuthConfig.from(rawConfig, config.brokerClusterName());   // a bad ACL setting stops the start here
        this.tls = TlsSettings.from(rawConfig);
        this.haTls = HaLinkTls.from(rawConfig, tls);
        this.hotPath = HotPathConfig.from(rawConfig);
        this.listenPort = config.listenPort() == 0 ? FreePort.pick() : config.listenPort();
        this.fastPort = config.listenPort() == 0 ? FreePort.pick() : config.listenPort() - 2;
        this.haPort = config.ha().haListenPort() != 0 ? config.ha().haListenPort()
            : config.listenPort() == 0 ? FreePort.pick() : config.listenPort() + 1;
    }

    @Override
    public Future<?> start() {
        RemotingJson json = new RemotingJson();
        DelayLevels delayLevels = DelayLevels.parse(config.messageDelayLevel());
        String brokerAddr = config.brokerAddr(listenPort);
        BrokerIdentity identity = new BrokerIdentity(config.brokerClusterName(), config.brokerName(), brokerAddr,
            config.brokerIP1() + ":" + haPort);
        boolean isControllerMode = config.controllerMode().enableControllerMode();
        RoleState role = new RoleState(isControllerMode ? BrokerRole.fencedWithoutRole() : config.classicRole());
        String root = config.storePathRootDir();
        TopicConfigTable topics = new TopicConfigTable(new JsonFile(vertx.fileSystem(), root + "/config/topics.json"),
            json);
        SubscriptionGroupTable groups = new SubscriptionGroupTable(new JsonFile(vertx.fileSystem(),
            root + "/config/subscriptionGroup.json"), json, config.autoCreateSubscriptionGroup(),
            config.maxReconsumeTimes());
        ConsumerOffsetTable offsets = new ConsumerOffsetTable(new JsonFile(vertx.fileSystem(),
            root + "/config/consumerOffset.json"), json);
        ClientRegistry clients = new ClientRegistry(System::currentTimeMillis, config.channelExpiredTimeoutMs());
        StoreConfig storeConfig = StoreConfig.from(BrokerConfig.storeValues(rawConfig, brokerAddr));
        holds = new PullHoldService(vertx, vertx.getOrCreateContext(), config.maxHeldPullRequests(),
            hotPath.readHeldPullsOnDispatcher(), (topic, queueId) -> {
                StoreAccess opened = storeAccess;   // set before any pull is served
                return opened == null ? -1 : opened.store().getMaxOffsetInQueue(topic, queueId);
            });
        BrokerMetrics metrics = new BrokerMetrics(registry, holds::heldCount);
        popConfig = PopConfig.from(rawConfig);
        requestModes = new RequestModeTable(new JsonFile(vertx.fileSystem(),
            root + "/config/messageRequestMode.json"), json);
        // Held pulls and held pops both wait for messages the dispatcher reports.
        dispatchListener = new DispatchListener() {
            @Override
            public void onDispatched(String topic, int queueId, long maxOffset, long tagsCode, long storeTime) {
                holds.onDispatched(topic, queueId, maxOffset);
                PopServices popServices = pop;
                if (popServices != null) {
                    popServices.onDispatched(topic);
                }
            }

            @Override
            public void onRoundDispatched() {
                holds.onRoundDispatched();
            }
        };
        auth = new AuthService(vertx, rawConfig, root, config.brokerClusterName(), json);
        return steps.run("loading topics, groups and offsets", () -> Future.all(topics.load(), groups.load(),
                offsets.load(), requestModes.load()))
            .compose(loaded -> steps.run("loading users and ACLs", auth::load))
            .compose(loaded -> steps.run("opening the store (recovery)", () -> vertx.executeBlocking(
                () -> openStore(storeConfig, delayLevels, isControllerMode))))
            .compose(opened -> {
                opened.store().setDispatchListener(dispatchListener);
                storeAccess = new StoreAccess(vertx, opened.store(), config.storeReaderThreads(),
                    hotPath.appendsPerWriterTurn(), hotPath.dispatchBehindWriter());
                return steps.run("telling the store of the topics' queues", () -> declareQueues(topics))
                    .compose(declared -> steps.run("wiring the broker", () -> wire(opened, json, delayLevels,
                        identity, role, topics, groups, offsets, clients, metrics, popConfig, isControllerMode)));
            })
            .compose(listening -> steps.run("listening for replication", this::listenReplication))
            .compose(listening -> steps.run("listening for gRPC (RocketMQ 5 SDKs)", this::startGrpc))
            .compose(listening -> awaitEarlierRoles())
            .compose(ready -> steps.run("registering with the name servers (then the admin API starts)",
                () -> registerBeforeAdmin(topics)))
            .compose(registered -> steps.run("starting the broker's services", () -> {
                startServices(offsets, clients, json, root, isControllerMode);
                announce(brokerAddr, root);
                steps.enter("serving");
                return Future.<Void>succeededFuture();
            }))
            .recover(this::releaseAfterFailedStart);
    }

    /**
     * The store learns every configured queue before the first send (one forced reserved-offset write covers them
     * all), and each topic created or changed from now on (system topics in {@link #wire} included).
     */
    private Future<Integer> declareQueues(TopicConfigTable topics) {
        StoreQueueDeclarer declarer = new StoreQueueDeclarer(storeAccess);
        topics.onChange(declarer::declare);
        return declarer.declareAll(topics.all());
    }

    /** Builds the broker context and what hangs off it, then listens on listenPort and the fast channel. */
    private Future<Void> wire(OpenedStore opened, RemotingJson json, DelayLevels delayLevels, BrokerIdentity identity,
                              RoleState role, TopicConfigTable topics, SubscriptionGroupTable groups,
                              ConsumerOffsetTable offsets, ClientRegistry clients, BrokerMetrics metrics,
                              PopConfig popConfig, boolean isControllerMode) {
        String root = config.storePathRootDir();
        Replication replication;
        if (isControllerMode) {
            controllerMode = new ControllerModeBroker(vertx, config, storeAccess, opened.epochs(), role, tls, haTls,
                auth.outgoingSigner());
            replication = controllerMode.replication();
        } else {
            replication = createReplication(storeAccess);
        }
        context = new BrokerContext(config, identity, json, topics, groups, offsets, clients, storeAccess,
            delayLevels, metrics, replication, role, new PopInflight(), MessageFeatures.from(rawConfig));
        createRegistrar(topics, json, identity);
        pop = new PopServices(vertx, vertx.getOrCreateContext(), context, popConfig, requestModes, namesrvClient);
        masterServices = new MasterServices(vertx, context, dispatchListener, pop);
        if (isControllerMode) {
            controllerMode.wire(context, masterServices, registrar, new SlaveSynchronizer(context,
                namesrvClient, DelayOffsetFile.under(vertx, json, root), registrar::registerAll)
                .withRequestModes(requestModes).withAuth(auth));
        }
        SystemTopics.ensure(topics, config, delayLevels.maxLevel());
        context.features().ensureTopics(topics, config.brokerClusterName());
        // A classic master serves POP from its first request: its in-flight state is rebuilt first.
        Future<Void> popReady = config.isMaster() ? pop.activate() : Future.succeededFuture();
        return popReady.compose(ready -> listen(auth.install(BrokerProcessors.build(context, holds,
            this::delayOffsets, isControllerMode ? controllerMode.processor(context) : new ControllerModeProcessor(
                context, null, null), pop, hotPath))));
    }

    private void startServices(ConsumerOffsetTable offsets, ClientRegistry clients, RemotingJson json, String root,
                               boolean isControllerMode) {
        startPeriodicTasks(offsets, clients);
        if (isControllerMode) {
            // Fenced until a controller names the role; the agent keeps trying on its own.
            controllerMode.start();
        } else if (context.replication() instanceof SlaveReplication slave) {
            // A slave delivers no held messages: its master does, and the results arrive by replication.
            slave.start(new SlaveSynchronizer(context, namesrvClient, DelayOffsetFile.under(vertx, json, root),
                registrar::registerAll).withRequestModes(requestModes).withAuth(auth));
            // Started before its master, a slave would otherwise learn of it a whole registration period later.
            timers.add(vertx.setPeriodic(SLAVE_FIND_MASTER_INTERVAL_MS, id -> {
                if (slave.masterAddr() == null) {
                    registrar.registerAll();
                }
            }));
        } else {
            // Only a master delivers held messages and asks producers about open transactions.
            masterServices.start();
        }
    }

    /**
     * A start that failed or was interrupted: Vert.x does not call stop() then, so run it here (it skips what was
     * never built), closing a store that was opened; then fail with the start's own error.
     */
    private Future<Void> releaseAfterFailedStart(Throwable error) {
        log.info("broker start ended before it completed ({}): releasing what it opened", error.getMessage());
        return stop().transform(released -> Future.failedFuture(error));
    }

    /**
     * The store and, in controller mode, its epoch file. Blocking: on a worker. The recovery gives up when the start is
     * interrupted; a store opened when the epoch file cannot be is closed again.
     */
    private OpenedStore openStore(StoreConfig storeConfig, DelayLevels delayLevels, boolean isControllerMode) {
        // Controller mode: consumers see only what every in-sync replica has, from the first recovery on.
        boolean isGated = isControllerMode && !config.autoSwitch().readUnCommitted();
        MessageStore store = MessageStore.open(storeConfig, StoreOptions.defaults()
            .withTagsCodes(new ScheduleTagsCode(delayLevels)).withDispatchGatedByConfirmOffset(isGated)
            .withOpenCancelled(steps.interruption()));
        try {
            EpochFile epochs = isControllerMode ? EpochFile.open(Path.of(config.controllerMode()
                .epochFilePath(config.storePathRootDir()))) : null;
            return new OpenedStore(store, epochs);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private record OpenedStore(MessageStore store, EpochFile epochs) {
    }

    private Future<Integer> listenReplication() {
        // The HA port takes TLS by the same tls.server.mode as the remoting ports.
        if (controllerMode != null) {
            return controllerMode.listenHa(config.bindAddress(), haPort, serverTls);
        }
        return haServer == null ? Future.succeededFuture(haPort)
            : haServer.listen(config.bindAddress(), haPort, serverTls);
    }

    private Replication createReplication(StoreAccess storeAccess) {
        if (!config.isMaster()) {
            return new SlaveReplication(vertx, config, storeAccess, haTls);
        }
        haServer = new HaServer(vertx, storeAccess, config.ha());
        return new MasterReplication(config, storeAccess, haServer);
    }

    /** Per delay level, the next schedule-queue offset to deliver: live on a master, as last copied on a slave. */
    private Future<Map<Integer, Long>> delayOffsets() {
        Map<Integer, Long> live = masterServices == null ? null : masterServices.delayOffsets();
        return live != null ? Future.succeededFuture(live)
            : DelayOffsetFile.under(vertx, context.json(), config.storePathRootDir()).load();
    }

    private Future<Void> listen(ProcessorTable processors) {
        return ServerTls.create(vertx, tls, "broker").compose(created -> {
            serverTls = created;
            AtomicInteger connections = new AtomicInteger();
            NetServerOptions options = new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true);
            // serverSelectorThreads loops share both ports; off the broker's own loop only sends and pulls run there.
            List<Context> loops = ConnectionLoops.of(vertx, vertx.getOrCreateContext(),
                hotPath.serverSelectorThreads());
            ProcessorTable table = loops.size() == 1 ? processors
                : HomeContextProcessors.confine(processors, loops.get(0));
            List<Future<Integer>> bound = new ArrayList<>();
            for (Context loop : loops) {
                RemotingServer main = new RemotingServer(vertx, options, config.limits(), config.maxConnections(),
                    connections, table, context.metrics(), serverTls);
                RemotingServer fast = new RemotingServer(vertx, options, config.limits(), config.maxConnections(),
                    connections, table, context.metrics(), serverTls);
                servers.add(main);
                servers.add(fast);
                bound.add(ConnectionLoops.listenOn(loop, main, config.bindAddress(), listenPort));
                bound.add(ConnectionLoops.listenOn(loop, fast, config.bindAddress(), fastPort));
            }
            return Future.all(bound).<Void>mapEmpty().onSuccess(listening -> log.info(
                "client connections served by {} event loop(s) (serverSelectorThreads)",
                loops.size()));
        });
    }

    @Override
    public void startBeside(Future<Void> earlierRolesServing) {
        this.earlierRolesServing = earlierRolesServing;
    }

    /**
     * The roles started before this one in the same process (its NameServer) serve before the first registration, so
     * that it is accepted at once. Their future completes on their own context; this one's steps go on on its own.
     */
    private Future<Void> awaitEarlierRoles() {
        if (earlierRolesServing.succeeded()) {
            return Future.succeededFuture();
        }
        return steps.run("waiting for the roles started before it in this process to serve",
            () -> Future.fromCompletionStage(earlierRolesServing.toCompletionStage(), super.context));
    }

    /** The gRPC endpoint calls this broker's remoting port on loopback, so it starts once that listens. */
    private Future<Integer> startGrpc() {
        grpcEndpoint = new GrpcEndpoint(vertx, context, config.grpc(), popConfig, listenPort, tls, auth);
        return grpcEndpoint.start();
    }

    /**
     * The first registration (what makes this broker routable: it listens and its store is open), then the admin
     * API's start: a client's first send does not wait for the admin API. Not side by side: the admin API's start
     * binds JVM meters and builds its router on this event loop, which would hold back the registration's write
     * (its connect completes on this loop) by as long. The admin address goes to the NameServers (for their console)
     * with a second registration once the admin API listens, so that it arrives after the first one, which has no
     * address and would otherwise make the NameServer forget it until the next period.
     */
    private Future<Void> registerBeforeAdmin(TopicConfigTable topics) {
        return startRegistration(topics)
            .compose(answered -> isStopping ? Future.succeededFuture(BrokerAdminServer.DISABLED_PORT) : startAdmin())
            .compose(adminPort -> {
                if (adminPort == BrokerAdminServer.DISABLED_PORT || isStopping) {
                    return Future.succeededFuture();
                }
                registrar.announceAdminAddr(adminServer.announcedAddr());
                return registrar.registerAll().mapEmpty();
            });
    }

    private Future<Integer> startAdmin() {
        adminServer = new BrokerAdminServer(vertx, context, registry, System.currentTimeMillis(), auth.admin())
            .withRoutes(grpcEndpoint::mountAdminRoutes).withHttps(tls, AdminHttps.isEnabled(rawConfig));
        return adminServer.start();
    }

    private void createRegistrar(TopicConfigTable topics, RemotingJson json, BrokerIdentity identity) {
        NetClientOptions options = new NetClientOptions().setConnectTimeout(3_000).setTcpNoDelay(true);
        namesrvClient = new RemotingClient(vertx, ClientTls.apply(tls, new NetClientOptions(options)),
            ClientTls.fallback(tls, options), config.limits(), ProcessorTable.empty(), RemotingObserver.NONE,
            auth.outgoingSigner());
        registrar = new NameServerRegistrar(namesrvClient, json, topics, config.namesrvAddrs(), identity,
            context.role(), RegistrationConfig.from(rawConfig));
        registrar.onMasterNamed(context.replication()::masterLearned);
    }

    /**
     * Registration of the one topic at each topic change, of all at every registerNameServerPeriod; in controller
     * mode once it has a role.
     */
    private Future<Void> startRegistration(TopicConfigTable topics) {
        topics.onChange(registrar::registerTopic);
        timers.add(vertx.setPeriodic(config.registerNameServerPeriodMs(), id -> registrar.registerAll()));
        return controllerMode != null ? Future.succeededFuture() : registerUntilAccepted(REGISTER_RETRY_FIRST_MS);
    }

    /**
     * A NameServer that is not up yet (both started together) would otherwise learn of us only a whole
     * registerNameServerPeriod later: retry soon, backing off, until every NameServer accepted once.
     */
    private Future<Void> registerUntilAccepted(long retryMs) {
        if (isStopping) {
            return Future.succeededFuture();   // a retry must not register again what the stop unregistered
        }
        return registrar.registerAll().map(isAccepted -> {
            if (!isAccepted && retryMs < config.registerNameServerPeriodMs()) {
                vertx.setTimer(retryMs, id -> registerUntilAccepted(retryMs * 2));
            }
            return null;
        });
    }

    private void startPeriodicTasks(ConsumerOffsetTable offsets, ClientRegistry clients) {
        timers.add(vertx.setPeriodic(config.flushConsumerOffsetIntervalMs(), id -> offsets.persistIfDirty()));
        timers.add(vertx.setPeriodic(config.clientChannelScanIntervalMs(), id -> clients.expireSilentClients()));
        // The put/get rates (admin API, mqadmin brokerStatus) need one sample a second, admin API on or off.
        timers.add(vertx.setPeriodic(BrokerMetrics.RATE_SAMPLE_INTERVAL_MS,
            id -> context.metrics().sampleRates(System.currentTimeMillis())));
    }

    private void announce(String brokerAddr, String root) {
        // The first words are RocketMQ's own, which scripts and operators wait for.
        System.out.println("The broker[" + config.brokerName() + ", " + brokerAddr + "] boot success. serializeType="
            + "JSON and name server is " + String.join(";", config.namesrvAddrs()) + "; fast channel port "
            + fastPort + ", " + roleDescription() + ", store " + root);
        System.out.flush();
    }

    private String roleDescription() {
        if (controllerMode != null) {
            return "controller mode (controllers " + String.join(";", config.controllerMode().controllerAddrs())
                + "; HA port " + haPort + "), fenced until a controller names its role";
        }
        return config.brokerRole() + (config.isMaster() ? " accepting slaves on port " + haPort
            : " following " + (config.ha().haMasterAddress().isBlank() ? "the master the name servers name"
            : config.ha().haMasterAddress()));
    }

    @Override
    public Future<?> stop() {
        steps.enter("stopping: timers and the controller agent");
        isStopping = true;
        timers.forEach(vertx::cancelTimer);
        // No role changes once stopping; the agent's controller connections close with it.
        Future<Void> agentStopped = controllerMode == null ? Future.succeededFuture() : controllerMode.stop();
        if (holds != null) {
            holds.releaseAll();   // held pulls answer now: their connections then close at once
        }
        long graceMs = config.shutdownGraceMs();
        Future<Void> unregistered = registrar == null ? Future.succeededFuture()
            : steps.stopStep("unregistering from the name servers", () -> registrar.unregisterAll(
                graceMs / UNREGISTER_SHARE_OF_GRACE));
        return unregistered
            // No more checks once stopping: a producer asked now might answer a broker that is gone.
            .eventually(() -> masterServices == null ? Future.succeededFuture()
                : steps.stopStep("stopping delivery and transaction checks (saving their progress)",
                    masterServices::stop))
            .eventually(() -> adminServer == null ? Future.succeededFuture() : adminServer.stop())
            .eventually(() -> grpcEndpoint == null ? Future.succeededFuture()
                : steps.stopStep("answering in-flight gRPC calls", () -> grpcEndpoint.stop(
                    graceMs / IN_FLIGHT_SHARE_OF_GRACE)))
            .eventually(() -> steps.stopStep("answering in-flight requests", () -> Future.join(servers.stream()
                .map(server -> server.shutdown(graceMs / IN_FLIGHT_SHARE_OF_GRACE)).toList())))
            .eventually(() -> context == null ? Future.succeededFuture()
                : steps.stopStep("persisting consumer offsets and topics", () -> Future.join(context.offsets()
                    .persistIfDirty(), context.topics().persist())))
            .eventually(() -> context == null ? Future.succeededFuture()
                : steps.stopStep("stopping replication", context.replication()::stop))
            .eventually(() -> storeAccess == null ? Future.succeededFuture()
                : steps.stopStep("closing the store (flush, checkpoint)", storeAccess::close))
            .eventually(() -> namesrvClient == null ? Future.succeededFuture() : namesrvClient.close())
            .eventually(() -> agentStopped)
            .onComplete(done -> {
                steps.enter("stopped");
                log.info("broker stopped");
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

    /** The bound remoting port. */
    public int listenPort() {
        return listenPort;
    }

    public int fastPort() {
        return fastPort;
    }

    /** Where a master accepts slaves (also computed on a slave, which does not listen there). */
    public int haPort() {
        return haPort;
    }

    /** The bound gRPC port, or -1 when the endpoint is off or not started. */
    public int grpcPort() {
        return grpcEndpoint == null ? -1 : grpcEndpoint.port();
    }

    /** The bound admin HTTP port (useful with adminPort 0), or -1 when the admin API is off or not started. */
    public int adminPort() {
        return adminServer == null ? BrokerAdminServer.DISABLED_PORT : adminServer.port();
    }
}
