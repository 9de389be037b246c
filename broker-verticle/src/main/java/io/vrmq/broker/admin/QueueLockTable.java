package io.vrmq.broker.admin;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Orderly-consumption queue locks (LOCK_BATCH_MQ 41 / UNLOCK_BATCH_MQ 42), RocketMQ's RebalanceLockManager: per
 * consumer group, each queue is owned by at most one client id. A lock lasts {@code maxLiveTimeMs} after its last
 * (re)lock; an orderly consumer relocks every 20 s, so a client that stops doing so loses its queues to the next
 * one that asks. Not persisted: after a restart, clients simply lock again.
 *
 * <p>Thread-safe without blocking: each queue's entry is replaced atomically by {@code ConcurrentHashMap.compute},
 * so two clients racing for one queue cannot both win.
 */
public final class QueueLockTable {
    /** RocketMQ's rebalance lock max live time (rocketmq.broker.rebalance.lockMaxLiveTime default). */
    public static final long DEFAULT_MAX_LIVE_TIME_MS = 60_000;

    private final Map<String, Map<MessageQueue, LockEntry>> groups = new ConcurrentHashMap<>();
    private final LongSupplier clockMs;
    private final long maxLiveTimeMs;

    public QueueLockTable(LongSupplier clockMs, long maxLiveTimeMs) {
        if (maxLiveTimeMs <= 0) {
            throw new IllegalArgumentException("invalid maxLiveTimeMs: " + maxLiveTimeMs);
        }
        this.clockMs = clockMs;
        this.maxLiveTimeMs = maxLiveTimeMs;
    }

    /**
     * Locks (or refreshes) every queue that is free, expired, or already {@code clientId}'s; returns those now held
     * by {@code clientId}.
     */
    public Set<MessageQueue> tryLockBatch(String group, Set<MessageQueue> queues, String clientId) {
        Map<MessageQueue, LockEntry> locks = groups.computeIfAbsent(group, name -> new ConcurrentHashMap<>());
        long nowMs = clockMs.getAsLong();
        Set<MessageQueue> locked = new TreeSet<>();
        for (MessageQueue queue : queues) {
            LockEntry owner = locks.compute(queue, (key, current) ->
                current == null || current.clientId().equals(clientId) || current.isExpired(nowMs, maxLiveTimeMs)
                    ? new LockEntry(clientId, nowMs) : current);
            if (owner.clientId().equals(clientId)) {
                locked.add(queue);
            }
        }
        return locked;
    }

    /** Releases the queues {@code clientId} holds; queues held by another client stay locked. */
    public void unlockBatch(String group, Set<MessageQueue> queues, String clientId) {
        Map<MessageQueue, LockEntry> locks = groups.get(group);
        if (locks == null) {
            return;
        }
        for (MessageQueue queue : queues) {
            locks.computeIfPresent(queue, (key, current) -> current.clientId().equals(clientId) ? null : current);
        }
    }

    private record LockEntry(String clientId, long lastUpdateMs) {
        boolean isExpired(long nowMs, long maxLiveTimeMs) {
            return nowMs - lastUpdateMs > maxLiveTimeMs;
        }
    }
}
