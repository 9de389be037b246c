package io.vrmq.controller.election;

import io.vertx.core.Future;
import io.vrmq.controller.LiveSettings;
import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.decision.Decision;
import io.vrmq.controller.decision.ElectMasterDecision;
import io.vrmq.controller.decision.ElectMasterRequest;
import io.vrmq.controller.decision.SyncStateDecisions;
import io.vrmq.controller.heartbeat.BrokerIdentity;
import io.vrmq.controller.metrics.ControllerMetrics;
import io.vrmq.controller.leader.DecisionSequencer;
import io.vrmq.controller.raft.ControllerStateMachine;
import io.vrmq.controller.raft.RaftNode;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.SyncStateInfo;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.LongSupplier;

/**
 * Every way a master gets elected: a broker's or an admin's CONTROLLER_ELECT_MASTER, and the leader's own re-election
 * when a master's connection closes, its heartbeats stop, or the periodic scan finds a set whose master is gone while
 * a replica is alive. A successful election is announced to the set's alive members.
 *
 * <p>A controller-triggered election is retried up to {@code electMasterMaxRetryCount} times, but only while it
 * failed to get an answer (no commit, leadership in flux). 5.5.0 also retries after a definite "nobody can be
 * master" (2004), and each of those retries records another "master lost" and bumps the master epoch again for
 * nothing.
 *
 * <p>The periodic scan acts on the absence of heartbeats, so it waits until this node has been up for one broker
 * heartbeat timeout: a node that just started has heard from nobody yet, and would otherwise replace a healthy master
 * whose first heartbeat happens to come after a slave's. Call on the controller's event loop.
 */
public final class MasterElector {
    private static final Logger log = LoggerFactory.getLogger(MasterElector.class);

    private final DecisionSequencer sequencer;
    private final RaftNode raft;
    private final ControllerStateMachine stateMachine;
    private final BrokerLiveness liveness;
    private final LiveSettings settings;
    private final RoleChangeNotifier notifier;
    private final ControllerMetrics metrics;
    private final ElectMasterDecision decision = new ElectMasterDecision();
    private final LongSupplier clockMs;
    private final long startedAtMs;
    private final long warmUpMs;
    private volatile boolean isStopping;

    public MasterElector(DecisionSequencer sequencer, RaftNode raft, ControllerStateMachine stateMachine,
                         BrokerLiveness liveness, LiveSettings settings, RoleChangeNotifier notifier,
                         ControllerMetrics metrics, LongSupplier clockMs, long warmUpMs) {
        this.clockMs = clockMs;
        this.startedAtMs = clockMs.getAsLong();
        this.warmUpMs = warmUpMs;
        this.sequencer = sequencer;
        this.raft = raft;
        this.stateMachine = stateMachine;
        this.liveness = liveness;
        this.settings = settings;
        this.notifier = notifier;
        this.metrics = metrics;
    }

    /** One election as asked; counts it and announces a new master. */
    public Future<Decision> elect(ElectMasterRequest request) {
        return sequencer.run(state -> decision.decide(state, liveness, request, settings.enableElectUncleanMaster()))
            .onSuccess(done -> afterElection(request, done));
    }

    /**
     * From now on, lost brokers trigger no election: the node is stopping, and closing its own listener closes every
     * broker's connection, which must not read as every master dying.
     */
    public void stop() {
        isStopping = true;
    }

    /** The heartbeat table lost {@code broker}: if it was the master of its set, elect another (leader only). */
    public void onBrokerInactive(BrokerIdentity broker) {
        if (isStopping || !raft.isLeaderReady()) {
            return;
        }
        SyncStateInfo syncState = stateMachine.state().syncState(broker.brokerName());
        if (syncState == null || syncState.masterBrokerId() == null
            || syncState.masterBrokerId() != broker.brokerId()) {
            log.info("broker {} inactive; it is not the master of its set, no election", broker);
            return;
        }
        log.warn("master {} inactive, electing a new master for {}", broker, broker.brokerName());
        electWithRetries(broker.clusterName(), broker.brokerName(), 1);
    }

    /** The leader's periodic check: re-elect in every set whose master is gone while a replica is alive. */
    public void scanInactiveMasters() {
        if (isStopping || !raft.isLeaderReady() || clockMs.getAsLong() - startedAtMs < warmUpMs) {
            return;
        }
        ControllerState state = stateMachine.state();
        for (String brokerName : SyncStateDecisions.setsNeedingReelection(state, liveness)) {
            SyncStateInfo syncState = state.syncState(brokerName);
            log.warn("master {} of {} is not alive, re-electing", syncState.masterBrokerId(), brokerName);
            electWithRetries(syncState.clusterName(), brokerName, 1);
        }
    }

    private void electWithRetries(String clusterName, String brokerName, int attempt) {
        elect(ElectMasterRequest.ofControllerTrigger(clusterName, brokerName))
            .onSuccess(done -> {
                if (done.code() == ResponseCode.CONTROLLER_NOT_LEADER) {
                    log.info("election for {} dropped: this node is no longer the leader", brokerName);
                }
            })
            .onFailure(error -> {
                if (attempt < settings.electMasterMaxRetryCount()) {
                    log.warn("election for {} failed (attempt {}), retrying: {}", brokerName, attempt,
                        error.getMessage());
                    electWithRetries(clusterName, brokerName, attempt + 1);
                } else {
                    log.error("election for {} failed after {} attempts: {}", brokerName, attempt,
                        error.getMessage());
                }
            });
    }

    private void afterElection(ElectMasterRequest request, Decision done) {
        String result = switch (done.code()) {
            case ResponseCode.SUCCESS -> ControllerMetrics.NEW_MASTER_ELECTED;
            case ResponseCode.CONTROLLER_MASTER_STILL_EXIST -> ControllerMetrics.KEEP_CURRENT_MASTER;
            case ResponseCode.CONTROLLER_MASTER_NOT_AVAILABLE, ResponseCode.CONTROLLER_ELECT_MASTER_FAILED ->
                ControllerMetrics.NO_MASTER_ELECTED;
            default -> null;
        };
        if (result == null) {
            return;
        }
        metrics.electionDone(request.clusterName(), request.brokerName(), result);
        log.info("election for {} ({}): {} {}", request.brokerName(), request.isControllerTriggered() ? "controller"
            : request.designateElect() ? "admin" : "broker " + request.brokerId(), result, done.header());
        if (done.isSuccess() && settings.notifyBrokerRoleChanged()) {
            notifier.notifyMembers(done);
        }
    }
}
