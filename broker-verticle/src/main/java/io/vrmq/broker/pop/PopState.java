package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.processor.SlaveWriteGuard;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What POP's request handlers share on the broker's context: whether POP is served now (only on a master, once its
 * in-flight state has been rebuilt from the revive log), that state, and the per-queue pop locks (RocketMQ's
 * QueueLockManager: a queue being popped by one request is skipped by the others, so no message is handed out twice).
 * <p>
 * Not thread-safe: confined to the broker's context.
 */
final class PopState {
    enum Status {
        /** Not a master (or not started): requests are refused. */
        INACTIVE,
        /** Becoming master: the revive log is being read back. */
        RECOVERING,
        ACTIVE
    }

    private final BrokerContext broker;
    private final Set<QueueKey> lockedQueues = new HashSet<>();
    private final Map<QueueKey, List<Promise<Void>>> waitingForUnlock = new HashMap<>();
    /** Queues a pop found locked: when they are unlocked, held pops are woken (they may have missed a message). */
    private final Set<QueueKey> contendedQueues = new HashSet<>();
    private Consumer<QueueKey> onContendedUnlock = queue -> {
    };
    private Status status = Status.INACTIVE;
    private InflightTable table;
    private int nextReviveQueue;

    PopState(BrokerContext broker) {
        this.broker = broker;
    }

    Status status() {
        return status;
    }

    void recovering() {
        status = Status.RECOVERING;
        table = null;
        releaseAllLocks();
    }

    void activate(InflightTable recovered) {
        table = recovered;
        status = Status.ACTIVE;
    }

    void deactivate() {
        status = Status.INACTIVE;
        if (table != null) {
            table.clear();
        }
        table = null;
        releaseAllLocks();
    }

    /** The in-flight table; refuses the request unless POP is served now (with the answer a client retries on). */
    InflightTable requireActive() {
        SlaveWriteGuard.requireWritable(broker);
        if (status == Status.RECOVERING) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_BUSY, "[POP] broker "
                + broker.config().brokerName() + " is reading its in-flight POP state back, try again shortly");
        }
        if (status != Status.ACTIVE) {
            throw new RemotingCommandException(ResponseCode.SERVICE_NOT_AVAILABLE, "[POP] broker "
                + broker.config().brokerName() + " does not serve POP now");
        }
        return table;
    }

    /** The table when active, else null (admin views and the revive service). */
    InflightTable tableIfActive() {
        return status == Status.ACTIVE ? table : null;
    }

    /** Set once at wiring: what to do when a queue another pop found locked is unlocked. */
    void onContendedUnlock(Consumer<QueueKey> listener) {
        this.onContendedUnlock = listener;
    }

    boolean tryLock(QueueKey queue) {
        if (lockedQueues.add(queue)) {
            return true;
        }
        contendedQueues.add(queue);
        return false;
    }

    void unlock(QueueKey queue) {
        lockedQueues.remove(queue);
        if (contendedQueues.remove(queue)) {
            onContendedUnlock.accept(queue);
        }
        List<Promise<Void>> waiting = waitingForUnlock.remove(queue);
        if (waiting != null) {
            waiting.forEach(Promise::complete);
        }
    }

    /**
     * Completes once no pop holds the queue's lock: an orderly ack or change waits for a pop of its queue in
     * progress, as RocketMQ's spins on the same lock, so it never applies to the pop being replaced.
     */
    Future<Void> whenUnlocked(QueueKey queue) {
        if (!lockedQueues.contains(queue)) {
            return Future.succeededFuture();
        }
        Promise<Void> unlocked = Promise.promise();
        waitingForUnlock.computeIfAbsent(queue, key -> new ArrayList<>()).add(unlocked);
        return unlocked.future();
    }

    private void releaseAllLocks() {
        for (QueueKey queue : new ArrayList<>(lockedQueues)) {
            unlock(queue);
        }
    }

    /** RocketMQ's round-robin choice of the revive queue for a pop's checkpoints. */
    int nextReviveQueue(int reviveQueueCount) {
        int queue = Math.floorMod(nextReviveQueue++, reviveQueueCount);
        return queue;
    }
}
