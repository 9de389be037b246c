package io.vrmq.broker.controller;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.role.RoleState;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * A broker's side of controller mode (RocketMQ's ReplicasManager). Until the controller names a role the broker is
 * fenced: no sends, no NameServer registration. Start: find the controller leader, get an id, register, heartbeat,
 * then take the role the controller names, or ask it to elect one. Running: heartbeats to every controller, the
 * set's master and SyncStateSet from the leader, SyncStateSet shrink checks (master), role-change notices; a role
 * is taken only from a master epoch newer than the one held.
 *
 * <p>Ours, beyond RocketMQ: a master that the leader has not confirmed as master for controllerLeaseMs stops taking
 * sends (it may have been replaced by a master that lacks what it would acknowledge). Not needed, so not applied,
 * with allAckInSyncStateSet: then every acknowledged message is on every in-sync replica already.
 *
 * <p>Confined to the broker's context: timers, answers and notices all run there.
 */
public final class ControllerAgent {
    private static final Logger log = LoggerFactory.getLogger(ControllerAgent.class);
    private static final int REGISTER_QUICK_RETRIES = 5;
    private static final long START_RETRY_MS = 5_000;
    private static final long FIRST_REPLICA_INFO_DELAY_MS = 3_000;

    private final Vertx vertx;
    private final Context context;
    private final ControllerModeConfig config;
    private final boolean isLeaseNeeded;
    private final ControllerLink link;
    private final BrokerIdAssignment ids;
    private final ControllerModeHa ha;
    private final RoleTransitions transitions;
    private final RoleState role;
    private final RemotingJson json;
    private final String clusterName;
    private final String brokerName;
    private final String brokerAddr;
    private final LongSupplier maxOffset;
    private final List<Long> timers = new ArrayList<>();
    private int masterEpoch;
    private Long masterBrokerId;
    private String masterAddress;
    private Future<Void> roleChanges = Future.succeededFuture();
    private boolean isRunning;
    private boolean isStopped;
    private boolean isPolling;
    private boolean isAltering;
    private long nextReplicaInfoMs;
    private long nextSyncStateSetCheckMs;
    private long nextLeaderRefreshMs;
    private long nextDnsLookupMs;
    private long lastConfirmedMasterMs;

    public ControllerAgent(Vertx vertx, ControllerModeConfig config, boolean allAckInSyncStateSet,
                           ControllerLink link, BrokerIdAssignment ids, ControllerModeHa ha,
                           RoleTransitions transitions, RoleState role, RemotingJson json, String clusterName,
                           String brokerName, String brokerAddr, LongSupplier maxOffset) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.config = config;
        this.isLeaseNeeded = !allAckInSyncStateSet;
        this.link = link;
        this.ids = ids;
        this.ha = ha;
        this.transitions = transitions;
        this.role = role;
        this.json = json;
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.brokerAddr = brokerAddr;
        this.maxOffset = maxOffset;
    }

    /** Starts the sequence; it retries on its own until it has a role or {@link #stop} is called. */
    public void start() {
        ha.onSyncStateSetExpansion(this::reportSyncStateSet);
        tryStart(0);
    }

    public void stop() {
        isStopped = true;
        timers.forEach(vertx::cancelTimer);
        timers.clear();
    }

    /** NOTIFY_BROKER_ROLE_CHANGED from the controller: taken like any answer, if its epoch is newer. Any thread. */
    public void onRoleChangeNotice(RoleAnswer notice) {
        log.info("role change notice: master {} at {}, epoch {}", notice.masterBrokerId(), notice.masterAddress(),
            notice.masterEpoch());
        context.runOnContext(ignored -> changeRole(notice));
    }

    /** For the admin API. */
    public Map<String, Object> status() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("controllers", link.controllers());
        view.put("controllerLeader", link.leaderAddr());
        view.put("controllerId", ids.controllerId());
        view.put("registered", isRunning);
        view.put("masterBrokerId", masterBrokerId);
        view.put("masterAddress", masterAddress);
        view.put("masterEpoch", masterEpoch);
        view.put("syncStateSet", ha.syncStateSet());
        view.put("syncStateSetEpoch", ha.syncStateSetEpoch());
        view.put("fenced", role.current().isFenced());
        if (isLeaseNeeded && isMaster()) {
            view.put("leaseRemainingMs", Math.max(0, lastConfirmedMasterMs + config.controllerLeaseMs()
                - System.currentTimeMillis()));
        }
        return view;
    }

    // ------------------------------------------------------------------ start

    private void tryStart(int attempt) {
        if (isStopped) {
            return;
        }
        link.refreshControllers()
            .compose(refreshed -> link.refreshLeader())
            .compose(leader -> ids.register())
            .compose(answer -> {
                sendHeartbeat();
                return answer.hasMaster() ? changeRole(answer) : elect();
            })
            .onSuccess(started -> running())
            .onFailure(error -> {
                long retryMs = attempt < REGISTER_QUICK_RETRIES ? ThreadLocalRandom.current().nextLong(1_000)
                    : START_RETRY_MS;
                log.warn("controller mode start of {} not done yet ({}); retrying in {} ms", brokerName,
                    error.getMessage(), retryMs);
                if (!isStopped) {
                    timers.add(vertx.setTimer(retryMs, id -> tryStart(attempt + 1)));
                }
            });
    }

    private void running() {
        if (isStopped || isRunning) {
            return;
        }
        isRunning = true;
        long nowMs = System.currentTimeMillis();
        nextReplicaInfoMs = nowMs + FIRST_REPLICA_INFO_DELAY_MS;
        nextSyncStateSetCheckMs = nowMs + FIRST_REPLICA_INFO_DELAY_MS;
        nextLeaderRefreshMs = nowMs + config.syncControllerMetadataPeriodMs();
        nextDnsLookupMs = nowMs + ControllerModeConfig.DNS_LOOKUP_INTERVAL_MS;
        timers.add(vertx.setPeriodic(config.brokerHeartbeatIntervalMs(), id -> tick()));
        log.info("controller mode running: {} is controller id {} ({})", brokerName, ids.controllerId(),
            role.current().brokerRole());
    }

    /** Every brokerHeartbeatInterval: heartbeat, lease, and whichever periodic request is due. */
    private void tick() {
        long nowMs = System.currentTimeMillis();
        sendHeartbeat();
        checkLease(nowMs);
        if (nowMs >= nextReplicaInfoMs) {
            // A master whose sends depend on its lease asks every tick: each answer renews it.
            nextReplicaInfoMs = nowMs + (isLeaseNeeded && isMaster() ? config.brokerHeartbeatIntervalMs()
                : config.syncBrokerMetadataPeriodMs());
            pollReplicaInfo(nowMs);
        }
        if (isMaster() && nowMs >= nextSyncStateSetCheckMs) {
            nextSyncStateSetCheckMs = nowMs + config.checkSyncStateSetPeriodMs();
            checkSyncStateSet();
        }
        if (nowMs >= nextLeaderRefreshMs) {
            nextLeaderRefreshMs = nowMs + config.syncControllerMetadataPeriodMs();
            link.refreshLeader().onFailure(error -> log.debug("leader refresh: {}", error.getMessage()));
        }
        if (nowMs >= nextDnsLookupMs) {
            nextDnsLookupMs = nowMs + ControllerModeConfig.DNS_LOOKUP_INTERVAL_MS;
            link.refreshControllers();
        }
    }

    private void sendHeartbeat() {
        Long id = ids.controllerId();
        if (id == null) {
            return;
        }
        Map<String, String> header = new HashMap<>();
        header.put("clusterName", clusterName);
        header.put("brokerAddr", brokerAddr);
        header.put("brokerName", brokerName);
        header.put("brokerId", Long.toString(id));
        header.put("epoch", Integer.toString(ha.lastEpoch()));
        header.put("maxOffset", Long.toString(maxOffset.getAsLong()));
        header.put("confirmOffset", Long.toString(ha.confirmOffset()));
        header.put("heartbeatTimeoutMills", Long.toString(config.controllerHeartBeatTimeoutMs()));
        header.put("electionPriority", Integer.toString(config.brokerElectionPriority()));
        link.heartbeatAll(header);
    }

    // ------------------------------------------------------------------ role

    private Future<Void> elect() {
        Map<String, String> header = new HashMap<>();
        header.put("clusterName", clusterName);
        header.put("brokerName", brokerName);
        header.put("brokerId", Long.toString(ids.controllerId()));
        header.put("designateElect", "false");
        header.put("invokeTime", Long.toString(System.currentTimeMillis()));
        return link.callLeader(RequestCode.CONTROLLER_ELECT_MASTER, header, null).compose(response -> {
            boolean isAnswer = response.code() == ResponseCode.SUCCESS
                || response.code() == ResponseCode.CONTROLLER_MASTER_STILL_EXIST;
            RoleAnswer answer = isAnswer ? RoleAnswer.fromElection(response, json) : null;
            if (answer == null || !answer.hasMaster()) {
                return Future.failedFuture(new IllegalStateException("no master elected for " + brokerName + ": "
                    + response.code() + " " + response.remark()));
            }
            return changeRole(answer);
        });
    }

    /** Takes the named role if its master epoch is newer than the held one; changes run one after another. */
    private Future<Void> changeRole(RoleAnswer answer) {
        roleChanges = roleChanges.transform(previous -> {
            if (isStopped || !answer.hasMaster() || answer.masterEpoch() <= masterEpoch) {
                return Future.succeededFuture();
            }
            return answer.masterBrokerId().equals(ids.controllerId()) ? toMaster(answer) : toSlave(answer);
        });
        return roleChanges;
    }

    private Future<Void> toMaster(RoleAnswer answer) {
        boolean wasMaster = ids.controllerId().equals(masterBrokerId) && isMaster();
        masterEpoch = answer.masterEpoch();
        masterBrokerId = ids.controllerId();
        masterAddress = brokerAddr;
        lastConfirmedMasterMs = System.currentTimeMillis();
        log.info("{} becomes master, epoch {}, SyncStateSet {} (epoch {})", brokerName, masterEpoch,
            answer.syncStateSet(), answer.syncStateSetEpoch());
        return transitions.becomeMaster(ids.controllerId(), masterEpoch,
                new SyncStateSetBody(answer.syncStateSet(), answer.syncStateSetEpoch()), wasMaster)
            .onSuccess(done -> checkSyncStateSet())
            .onFailure(error -> log.error("{} could not become master of epoch {}", brokerName, masterEpoch, error));
    }

    private Future<Void> toSlave(RoleAnswer answer) {
        boolean isSameMaster = answer.masterBrokerId().equals(masterBrokerId);
        masterEpoch = answer.masterEpoch();
        masterBrokerId = answer.masterBrokerId();
        masterAddress = answer.masterAddress();
        log.info("{} becomes slave of {} (id {}), epoch {}", brokerName, masterAddress, masterBrokerId,
            masterEpoch);
        return transitions.becomeSlave(ids.controllerId(), masterEpoch, masterAddress, isSameMaster)
            .onFailure(error -> log.error("{} could not become slave in epoch {}", brokerName, masterEpoch, error));
    }

    private boolean isMaster() {
        BrokerRole current = role.current();
        return current.brokerId() == BrokerRole.MASTER_ID && !current.isSlave();
    }

    // ------------------------------------------------------------------ periodic requests

    private void pollReplicaInfo(long sentMs) {
        if (isPolling) {
            return;
        }
        isPolling = true;
        link.callLeader(RequestCode.CONTROLLER_GET_REPLICA_INFO, Map.of("brokerName", brokerName), null)
            .compose(response -> onReplicaInfo(response, sentMs))
            .onFailure(error -> log.debug("replica info of {}: {}", brokerName, error.getMessage()))
            .onComplete(done -> isPolling = false);
    }

    private Future<Void> onReplicaInfo(RemotingCommand response, long sentMs) {
        if (response.code() == ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST) {
            return ids.registerBroker().compose(this::changeRole);
        }
        if (response.code() != ResponseCode.SUCCESS) {
            return Future.failedFuture(new IllegalStateException(response.code() + " " + response.remark()));
        }
        RoleAnswer answer = RoleAnswer.fromReplicaInfo(response, json);
        if (answer.masterEpoch() > masterEpoch) {
            return answer.hasMaster() ? changeRole(answer) : elect();
        }
        if (answer.masterEpoch() == masterEpoch && isMaster() && ids.controllerId().equals(answer.masterBrokerId())) {
            renewLease(sentMs);
            if (answer.syncStateSetEpoch() > ha.syncStateSetEpoch()) {
                ha.setSyncStateSet(answer.syncStateSet(), answer.syncStateSetEpoch());
            }
        }
        return Future.succeededFuture();
    }

    /** The lease runs from when the confirming request was sent: the leader's view is at least that recent. */
    private void renewLease(long sentMs) {
        lastConfirmedMasterMs = Math.max(lastConfirmedMasterMs, sentMs);
        BrokerRole current = role.current();
        if (current.isFenced() && isMaster()) {
            role.set(current.fenced(false));
            log.info("{}: the controller leader confirms this master again; taking sends", brokerName);
        }
    }

    private void checkLease(long nowMs) {
        if (!isLeaseNeeded || !isMaster()) {
            return;
        }
        BrokerRole current = role.current();
        long silentMs = nowMs - lastConfirmedMasterMs;
        if (!current.isFenced() && silentMs > config.controllerLeaseMs()) {
            role.set(current.fenced(true));
            log.warn("{}: no confirmation from the controller leader for {} ms (controllerLeaseMs {}): refusing sends "
                + "until it confirms this master again", brokerName, silentMs, config.controllerLeaseMs());
        }
    }

    private void checkSyncStateSet() {
        if (!isMaster()) {
            return;
        }
        Set<Long> shrunk = new TreeSet<>(ha.maybeShrinkSyncStateSet());
        shrunk.add(ids.controllerId());
        if (!shrunk.equals(new TreeSet<>(ha.syncStateSet()))) {
            reportSyncStateSet(shrunk);
        }
    }

    /** ALTER_SYNC_STATE_SET with the set replication wants; one at a time (the next check sends any later one). */
    private void reportSyncStateSet(Set<Long> proposed) {
        if (isAltering || !isMaster()) {
            return;
        }
        isAltering = true;
        Map<String, String> header = new HashMap<>();
        header.put("brokerName", brokerName);
        header.put("masterBrokerId", Long.toString(ids.controllerId()));
        header.put("masterEpoch", Integer.toString(masterEpoch));
        header.put("invokeTime", Long.toString(System.currentTimeMillis()));
        int basedOnEpoch = ha.syncStateSetEpoch();
        link.callLeader(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET, header,
                json.encode(new SyncStateSetBody(proposed, basedOnEpoch)))
            .onSuccess(response -> {
                if (response.code() != ResponseCode.SUCCESS || !response.hasBody()) {
                    log.warn("SyncStateSet {} of {} refused: {} {}", proposed, brokerName, response.code(),
                        response.remark());
                    return;
                }
                SyncStateSetBody agreed = json.decode(response.body(), SyncStateSetBody.class);
                if (agreed.syncStateSetEpoch() > ha.syncStateSetEpoch()) {
                    log.info("SyncStateSet of {} is now {} (epoch {})", brokerName, agreed.syncStateSet(),
                        agreed.syncStateSetEpoch());
                    ha.setSyncStateSet(agreed.syncStateSet(), agreed.syncStateSetEpoch());
                }
            })
            .onFailure(error -> log.warn("SyncStateSet {} of {} not reported: {}", proposed, brokerName,
                error.getMessage()))
            .onComplete(done -> isAltering = false);
    }
}
