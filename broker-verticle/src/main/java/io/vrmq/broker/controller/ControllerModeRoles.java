package io.vrmq.broker.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.MasterServices;
import io.vrmq.broker.namesrv.NameServerRegistrar;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.role.RoleState;
import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's role changes in controller mode, in the order that keeps acknowledged messages safe: a new master
 * first turns replication and its store around (the store takes own appends only once it caught up with what it
 * has), then reports SYNC_MASTER and starts the master-only services; a new slave stops taking sends at once, stops
 * the master-only services, then follows. Either registers with the NameServers right away (a new master under id 0
 * with its epoch as state version, so no stale master can hold id 0 against it).
 *
 * <p>Ours, beyond RocketMQ: a new slave learns the master's HA address from the NameServers as soon as the master has
 * registered, asking again every {@link #HA_ADDRESS_RETRY_MS} instead of waiting for the next periodic registration.
 * Confined to the broker's context.
 */
public final class ControllerModeRoles implements RoleTransitions {
    private static final Logger log = LoggerFactory.getLogger(ControllerModeRoles.class);
    static final long HA_ADDRESS_RETRY_MS = 500;

    private final Vertx vertx;
    private final ControllerReplication replication;
    private final RoleState role;
    private final MasterServices masterServices;
    private final TopicConfigTable topics;
    private final NameServerRegistrar registrar;
    private final ControllerModeMeters meters;
    private long haAddressTimerId = -1;

    public ControllerModeRoles(Vertx vertx, ControllerReplication replication, RoleState role,
                               MasterServices masterServices, TopicConfigTable topics, NameServerRegistrar registrar,
                               ControllerModeMeters meters) {
        this.vertx = vertx;
        this.replication = replication;
        this.role = role;
        this.masterServices = masterServices;
        this.topics = topics;
        this.registrar = registrar;
        this.meters = meters;
    }

    @Override
    public Future<Void> becomeMaster(long controllerId, int masterEpoch, SyncStateSetBody syncStateSet,
                                     boolean wasMaster) {
        stopHaAddressLookup();
        return replication.changeToMaster(controllerId, masterEpoch, syncStateSet)
            .compose(changed -> {
                role.set(new BrokerRole(BrokerRole.SYNC_MASTER, BrokerRole.MASTER_ID, masterEpoch, false));
                meters.roleChanged(true);
                // Producers find the new master through the NameServers: register first (the new state version is
                // in memory at once, its file written meanwhile), then start the services only a master runs.
                Future<Void> persisted = topics.advanceStateVersion(masterEpoch);
                Future<Boolean> registered = registrar.registerAll();
                masterServices.start();
                return Future.all(persisted, registered).map(all -> registered.result());
            })
            .onSuccess(accepted -> log.info("registered as master of epoch {} ({})", masterEpoch,
                wasMaster ? "the same master, new epoch" : "new master"))
            .mapEmpty();
    }

    @Override
    public Future<Void> becomeSlave(long controllerId, int masterEpoch, String masterAddress, boolean isSameMaster) {
        role.set(new BrokerRole(BrokerRole.SLAVE, controllerId, masterEpoch, false));
        meters.roleChanged(false);
        return masterServices.stop()
            .compose(stopped -> replication.changeToSlave(controllerId, masterEpoch, masterAddress, isSameMaster))
            .compose(changed -> topics.advanceStateVersion(masterEpoch))
            .compose(advanced -> registrar.registerAll())
            .onSuccess(accepted -> startHaAddressLookup())
            .mapEmpty();
    }

    /** Until the NameServers name the new master's HA address, ask them again soon. */
    private void startHaAddressLookup() {
        stopHaAddressLookup();
        haAddressTimerId = vertx.setPeriodic(HA_ADDRESS_RETRY_MS, id -> {
            if (!role.current().isSlave() || replication.hasMasterHaAddress()) {
                stopHaAddressLookup();
                return;
            }
            registrar.registerAll();
        });
    }

    private void stopHaAddressLookup() {
        if (haAddressTimerId >= 0) {
            vertx.cancelTimer(haAddressTimerId);
            haAddressTimerId = -1;
        }
    }

    /** On stop. */
    public void close() {
        stopHaAddressLookup();
    }
}
