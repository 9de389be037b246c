package io.vrmq.broker.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.broker.BrokerConfig;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.MasterServices;
import io.vrmq.broker.ha.HaLinkTls;
import io.vrmq.broker.ha.SlaveSynchronizer;
import io.vrmq.broker.ha.autoswitch.AutoSwitchHaService;
import io.vrmq.broker.namesrv.NameServerRegistrar;
import io.vrmq.broker.role.RoleState;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.tls.ClientTls;
import io.vrmq.remoting.tls.ServerTls;
import io.vrmq.remoting.tls.TlsSettings;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.store.epoch.EpochFile;

import java.util.function.UnaryOperator;

/**
 * Wiring of controller mode into one broker: AutoSwitch replication, the agent that talks to the controllers, the
 * role transitions and the controller-mode request processor. Built by the broker verticle in two steps (replication
 * first, because the broker context holds it; the rest once the context exists). Wiring only.
 */
public final class ControllerModeBroker {
    private final Vertx vertx;
    private final BrokerConfig config;
    private final ControllerReplication replication;
    private final RemotingClient controllerClient;
    private ControllerAgent agent;
    private ControllerModeRoles roles;

    /**
     * @param tls    the broker's TLS settings: its controller connections use TLS by their rule (tls.enable, or an
     *               enforcing broker), as Apache's broker does
     * @param haTls  how the broker follows a master's HA port
     * @param signer signs every request to the controllers (innerClientAuthenticationCredentials, as Apache's
     *               BrokerOuterAPI does; Apache's controller and ours ignore the extra fields)
     */
    public ControllerModeBroker(Vertx vertx, BrokerConfig config, StoreAccess store, EpochFile epochs,
                                RoleState role, TlsSettings tls, HaLinkTls haTls,
                                UnaryOperator<RemotingCommand> signer) {
        this.vertx = vertx;
        this.config = config;
        AutoSwitchHaService ha = new AutoSwitchHaService(vertx, store, epochs, config.ha(), config.autoSwitch(),
            haTls);
        this.replication = new ControllerReplication(vertx, ha, role, config.ha().slaveSyncMetadataIntervalMs());
        NetClientOptions options = new NetClientOptions().setConnectTimeout(3_000).setTcpNoDelay(true);
        this.controllerClient = new RemotingClient(vertx, ClientTls.apply(tls, new NetClientOptions(options)),
            ClientTls.fallback(tls, options), config.limits(), ProcessorTable.empty(), RemotingObserver.NONE, signer);
    }

    public ControllerReplication replication() {
        return replication;
    }

    /** Second step, once the broker context, its master services and its NameServer registrar exist. */
    public void wire(BrokerContext broker, MasterServices masterServices, NameServerRegistrar registrar,
                     SlaveSynchronizer synchronizer) {
        ControllerModeConfig mode = config.controllerMode();
        roles = new ControllerModeRoles(vertx, replication, broker.role(), masterServices, broker.topics(),
            registrar, new ControllerModeMeters(broker.metrics().registry(), broker.role(), replication));
        ControllerLink link = new ControllerLink(vertx, controllerClient, mode, config.limits().requestTimeoutMs());
        String brokerAddr = broker.identity().brokerAddr();
        BrokerIdAssignment ids = new BrokerIdAssignment(vertx, link,
            new BrokerIdentityFiles(mode.brokerIdentityPath(config.storePathRootDir())), broker.json(),
            config.brokerClusterName(), config.brokerName(), brokerAddr);
        agent = new ControllerAgent(vertx, mode, config.autoSwitch().allAckInSyncStateSet(), link, ids, replication,
            roles, broker.role(), broker.json(), config.brokerClusterName(), config.brokerName(), brokerAddr,
            () -> broker.store().store().getCommitLogMaxOffset());
        replication.attach(synchronizer, agent::status);
    }

    public ControllerModeProcessor processor(BrokerContext broker) {
        return new ControllerModeProcessor(broker, agent, replication);
    }

    /** @param tls the HA port's TLS (the broker's tls.server.mode), or null for plain */
    public Future<Integer> listenHa(String host, int port, ServerTls tls) {
        return replication.listenHa(host, port, tls);
    }

    /** Starts talking to the controllers; the broker stays fenced until one names its role. */
    public void start() {
        agent.start();
    }

    /** Stops the agent and its timers (replication itself stops with the broker's replication). */
    public Future<Void> stop() {
        if (agent != null) {
            agent.stop();
        }
        if (roles != null) {
            roles.close();
        }
        return controllerClient.close();
    }
}
