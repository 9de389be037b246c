package io.vrmq.broker.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.ha.Replication;
import io.vrmq.broker.ha.SlaveAck;
import io.vrmq.broker.ha.SlaveSynchronizer;
import io.vrmq.broker.ha.autoswitch.AutoSwitchHaService;
import io.vrmq.broker.ha.autoswitch.HaRuntimeInfoBody;
import io.vrmq.remoting.tls.ServerTls;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.role.RoleState;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.store.epoch.EpochEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Replication in controller mode, as the processors and the admin API see it: AutoSwitch HA ({@link
 * AutoSwitchHaService}) in whichever role the controller gave, plus a slave's copy of its master's metadata (topics,
 * groups, offsets, delay progress) every slaveSyncMetadataInterval. Which master a slave follows is the controller's
 * word (its broker address); the HA address to reach it comes from the NameServers, and only for that address.
 * Confined to the broker's context, except the readers the processors call.
 */
public final class ControllerReplication implements Replication, ControllerModeHa {
    private static final Logger log = LoggerFactory.getLogger(ControllerReplication.class);

    private final Vertx vertx;
    private final AutoSwitchHaService ha;
    private final RoleState role;
    private final long slaveSyncMetadataIntervalMs;
    private volatile String masterAddr;
    private volatile String masterHaAddr;
    private SlaveSynchronizer synchronizer;
    private Supplier<Map<String, Object>> agentStatus = Map::of;
    private long syncTimerId = -1;

    public ControllerReplication(Vertx vertx, AutoSwitchHaService ha, RoleState role,
                                 long slaveSyncMetadataIntervalMs) {
        this.vertx = vertx;
        this.ha = ha;
        this.role = role;
        this.slaveSyncMetadataIntervalMs = slaveSyncMetadataIntervalMs;
    }

    /** Late wiring: the metadata copy needs the broker context, which holds this replication. */
    public void attach(SlaveSynchronizer synchronizer, Supplier<Map<String, Object>> agentStatus) {
        this.synchronizer = synchronizer;
        this.agentStatus = agentStatus;
    }

    Future<Integer> listenHa(String host, int port, ServerTls tls) {
        return ha.listen(host, port, tls);
    }

    Future<Void> changeToMaster(long controllerId, int masterEpoch, SyncStateSetBody syncStateSet) {
        stopMetadataSync();
        masterAddr = null;
        masterHaAddr = null;
        return ha.changeToMaster(controllerId, masterEpoch, syncStateSet);
    }

    Future<Void> changeToSlave(long controllerId, int masterEpoch, String newMasterAddr, boolean isSameMaster) {
        if (!isSameMaster || !Objects.equals(masterAddr, newMasterAddr)) {
            masterHaAddr = null;     // the old master's HA address must not be followed
        }
        masterAddr = newMasterAddr;
        return ha.changeToSlave(controllerId, masterEpoch, masterHaAddr).onSuccess(changed -> startMetadataSync());
    }

    /** Slave: whether the NameServers named the HA address of the master the controller chose. */
    boolean hasMasterHaAddress() {
        return masterHaAddr != null;
    }

    @Override
    public void masterLearned(String namedMasterAddr, String namedHaAddr) {
        String expected = masterAddr;
        if (!role.current().isSlave() || expected == null || !expected.equals(namedMasterAddr) || namedHaAddr == null
            || namedHaAddr.equals(masterHaAddr)) {
            return;    // a NameServer may still list the old master under id 0 for a while
        }
        masterHaAddr = namedHaAddr;
        log.info("master {} replicates from HA {}", expected, namedHaAddr);
        ha.updateMasterHaAddress(namedHaAddr);
        if (synchronizer != null) {
            synchronizer.syncFrom(expected);
        }
    }

    private void startMetadataSync() {
        stopMetadataSync();
        if (synchronizer != null && masterAddr != null) {
            synchronizer.syncFrom(masterAddr);
        }
        syncTimerId = vertx.setPeriodic(slaveSyncMetadataIntervalMs, id -> {
            String master = masterAddr;
            if (master != null && synchronizer != null && role.current().isSlave()) {
                synchronizer.syncFrom(master);
            }
        });
    }

    private void stopMetadataSync() {
        if (syncTimerId >= 0) {
            vertx.cancelTimer(syncTimerId);
            syncTimerId = -1;
        }
    }

    // ---------------------------------------------------------------- Replication (processors)

    /** Not master: a slave, or a broker the controller has not named yet. Sends are refused, pulls may be served. */
    @Override
    public boolean isSlave() {
        BrokerRole current = role.current();
        return current.isSlave() || current.brokerId() != BrokerRole.MASTER_ID;
    }

    @Override
    public boolean isMasterAlive() {
        return ha.isMasterLinkUp();
    }

    @Override
    public Future<SlaveAck> awaitSlave(long endOffset) {
        return ha.awaitReplicas(endOffset);
    }

    @Override
    public boolean hasEnoughInSyncReplicas() {
        return ha.hasEnoughInSyncReplicas();
    }

    @Override
    public String masterAddr() {
        return role.current().isSlave() ? masterAddr : null;
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("mode", "controller");
        status.put("brokerRole", role.current().brokerRole());
        status.put("brokerId", role.current().brokerId());
        status.put("fenced", role.current().isFenced());
        status.put("masterAddr", masterAddr());
        status.put("controller", agentStatus.get());
        status.put("replication", ha.status());
        return status;
    }

    @Override
    public Future<Void> stop() {
        stopMetadataSync();
        return ha.close();
    }

    // ---------------------------------------------------------------- ControllerModeHa (agent)

    @Override
    public void onSyncStateSetExpansion(Consumer<Set<Long>> proposer) {
        ha.onSyncStateSetProposal(proposer);
    }

    @Override
    public Set<Long> maybeShrinkSyncStateSet() {
        return ha.maybeShrinkSyncStateSet();
    }

    @Override
    public void setSyncStateSet(Set<Long> syncStateSet, int syncStateSetEpoch) {
        ha.setSyncStateSet(syncStateSet, syncStateSetEpoch);
    }

    @Override
    public Set<Long> syncStateSet() {
        return ha.syncStateSet();
    }

    @Override
    public int syncStateSetEpoch() {
        return ha.syncStateSetEpoch();
    }

    @Override
    public int lastEpoch() {
        return ha.lastEpoch();
    }

    @Override
    public long confirmOffset() {
        return ha.confirmOffset();
    }

    // ---------------------------------------------------------------- admin requests

    /** AutoSwitch HA's own view (any thread): role, epochs, confirm offset, slave links or the master link. */
    Map<String, Object> replicationStatus() {
        return ha.status();
    }

    List<EpochEntry> epochEntries() {
        return ha.epochEntries();
    }

    HaRuntimeInfoBody haRuntimeInfo() {
        return ha.haRuntimeInfo();
    }
}
