package io.vrmq.controller.leader;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vrmq.controller.decision.Decision;
import io.vrmq.controller.raft.NotRaftLeaderException;
import io.vrmq.controller.raft.ControllerStateMachine;
import io.vrmq.controller.raft.RaftNode;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs the controller's state requests one at a time, like RocketMQ's controller event queue: each decision is made
 * against the state as applied on this node, and a write waits until its event is committed and applied before the
 * next decision runs, so decisions never see a state older than the answers already given.
 *
 * <p>Only the ready Raft leader decides (RocketMQ answers CONTROLLER_NOT_LEADER otherwise); "ready" means it has
 * applied every entry committed before its term. If a replicated event turns out stale at apply (the leader changed
 * while it was in flight), the decision is made again on the new state, up to {@link #MAX_ATTEMPTS} times.
 *
 * <p>Threads: call only on the controller verticle's event loop (its {@code context}); Ratis replies are brought back
 * to that context.
 */
public final class DecisionSequencer {
    static final int MAX_ATTEMPTS = 3;
    static final String NOT_LEADER_REMARK = "The controller is not in leader state";

    private final Context context;
    private final RaftNode raft;
    private final ControllerStateMachine stateMachine;
    private final long commitTimeoutMs;
    private Future<?> tail = Future.succeededFuture();

    public DecisionSequencer(Context context, RaftNode raft, ControllerStateMachine stateMachine,
                             long commitTimeoutMs) {
        this.context = context;
        this.raft = raft;
        this.stateMachine = stateMachine;
        this.commitTimeoutMs = commitTimeoutMs;
    }

    /**
     * Queues {@code decider}; completes with its decision once any event it produced is applied. A refusal because
     * this node is not the leader is a decision with CONTROLLER_NOT_LEADER. Fails when the event was not committed
     * in time ({@link RemotingCommandException}, SYSTEM_ERROR).
     */
    public Future<Decision> run(Function<ControllerState, Decision> decider) {
        Future<Decision> result = tail.transform(previous -> attempt(decider, 1));
        tail = result.transform(ignored -> Future.succeededFuture());
        return result;
    }

    /** The answer a non-leader gives to a state request. */
    public static Decision notLeader() {
        return Decision.refused(ResponseCode.CONTROLLER_NOT_LEADER, NOT_LEADER_REMARK, null);
    }

    private Future<Decision> attempt(Function<ControllerState, Decision> decider, int attemptNumber) {
        if (!raft.isLeaderReady()) {
            return Future.succeededFuture(notLeader());
        }
        Decision decision = decider.apply(stateMachine.state());
        if (decision.event() == null) {
            return Future.succeededFuture(decision);
        }
        return Future.fromCompletionStage(raft.submit(decision.event()), context)
            .timeout(commitTimeoutMs, TimeUnit.MILLISECONDS)
            .transform(outcome -> {
                if (outcome.succeeded()) {
                    if (outcome.result().isAccepted()) {
                        return Future.succeededFuture(decision);
                    }
                    if (attemptNumber < MAX_ATTEMPTS) {
                        return attempt(decider, attemptNumber + 1);
                    }
                    return Future.failedFuture(new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
                        "the controller state kept changing under the request: " + outcome.result().rejection()));
                }
                return isNotLeader(outcome.cause()) ? Future.succeededFuture(notLeader())
                    : Future.failedFuture(new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
                    "the controller event was not committed within " + commitTimeoutMs + " ms: " + outcome.cause()));
            });
    }

    private static boolean isNotLeader(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof NotRaftLeaderException) {
                return true;
            }
        }
        return false;
    }
}
