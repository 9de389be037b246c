package io.vrmq.broker.ha.autoswitch;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A master's view of its SyncStateSet (RocketMQ's AutoSwitchHAService rules):
 * <ul>
 * <li>the local set is what the controller last answered ({@link #adopt}); a slave whose link drops is proposed out
 * at once ({@link #dropOnDisconnect}) but counts until the controller agrees, so a master cut off from the
 * controller (whose slaves left it for a newly elected master) cannot acknowledge alone what they do not have;</li>
 * <li>a change proposed to the controller (expansion, shrink, drop) marks the set "synchronizing": until the
 * controller answers, counts use the larger of the local and proposed sets and the confirm offset uses their
 * union, so a proposal in flight never weakens the guarantee;</li>
 * <li>each slave's last caught-up time decides the shrink.</li>
 * </ul>
 * Deliberate difference: RocketMQ proposes the same expansion again on every acknowledgement until the controller
 * answers; here an identical proposal is repeated at most once per {@code reproposeIntervalMs}.
 *
 * <p>Thread-safe (synchronized; snapshots are immutable), so the broker may read it from any thread.
 */
final class SyncStateSetTracker {
    private final long reproposeIntervalMs;
    private final Map<Long, Long> caughtUpMs = new ConcurrentHashMap<>();
    private volatile Set<Long> local = Set.of();
    private volatile int epoch;
    private Set<Long> proposed = Set.of();   // guarded by this
    private volatile boolean isSynchronizing;
    private Set<Long> lastProposal;            // guarded by this
    private long lastProposalMs;               // guarded by this

    SyncStateSetTracker(long reproposeIntervalMs) {
        this.reproposeIntervalMs = reproposeIntervalMs;
    }

    /** The set the controller last answered. Any thread. */
    Set<Long> local() {
        return local;
    }

    int epoch() {
        return epoch;
    }

    boolean isSynchronizing() {
        return isSynchronizing;
    }

    /** Adopts the controller's set unless its epoch is older than the one held; ends "synchronizing". */
    synchronized boolean adopt(Set<Long> ids, int newEpoch) {
        if (newEpoch < epoch) {
            return false;
        }
        local = sorted(ids);
        epoch = newEpoch;
        isSynchronizing = false;
        lastProposal = null;
        return true;
    }

    /** The local set, or while a proposal is in flight the union with it (RocketMQ's getSyncStateSet). */
    synchronized Set<Long> effective() {
        if (!isSynchronizing) {
            return local;
        }
        TreeSet<Long> union = new TreeSet<>(local);
        union.addAll(proposed);
        return Collections.unmodifiableSet(union);
    }

    /** Replicas counted in sync: the larger of the local and proposed sets while synchronizing. */
    synchronized int inSyncCount() {
        return isSynchronizing ? Math.max(local.size(), proposed.size()) : local.size();
    }

    /** The slave was caught up at {@code timeMs} (kept if later than what is recorded). */
    void caughtUp(long slaveId, long timeMs) {
        caughtUpMs.merge(slaveId, timeMs, Math::max);
    }

    /** When {@code slaveId} was last caught up, or null if never. */
    Long lastCaughtUpMs(long slaveId) {
        return caughtUpMs.get(slaveId);
    }

    /**
     * A slave acknowledged {@code ackOffset}: outside the set and at or past both the confirm offset and the start
     * of the master's current epoch, it is proposed for the set. Returns the set to propose, if any.
     */
    synchronized Optional<Set<Long>> expand(long slaveId, long ackOffset, long confirmOffset, long epochStartOffset,
                                            long nowMs) {
        if (local.contains(slaveId) || ackOffset < confirmOffset || ackOffset < epochStartOffset) {
            return Optional.empty();
        }
        TreeSet<Long> grown = new TreeSet<>(local);
        grown.add(slaveId);
        Set<Long> proposal = Collections.unmodifiableSet(grown);
        if (isSynchronizing && proposal.equals(lastProposal) && nowMs - lastProposalMs < reproposeIntervalMs) {
            return Optional.empty();
        }
        markSynchronizing(proposal, nowMs);
        return Optional.of(proposal);
    }

    /**
     * A slave's link dropped: the set without it is proposed (the local set changes only when the controller answers;
     * meanwhile the union counts, and the confirm offset waits for the dropped member). Returns the proposal, if it was
     * a member.
     */
    synchronized Optional<Set<Long>> dropOnDisconnect(long slaveId, long nowMs) {
        if (!local.contains(slaveId)) {
            return Optional.empty();
        }
        TreeSet<Long> shrunk = new TreeSet<>(local);
        shrunk.remove(slaveId);
        Set<Long> proposal = Collections.unmodifiableSet(shrunk);
        markSynchronizing(proposal, nowMs);
        return Optional.of(proposal);
    }

    /**
     * The local set without the slaves that have no link ({@code liveSlaveIds}) or were not caught up within
     * {@code maxNotCaughtUpMs}; {@code localBrokerId} is always in it. A change marks the set synchronizing.
     */
    synchronized Set<Long> shrink(Set<Long> liveSlaveIds, long localBrokerId, long nowMs, long maxNotCaughtUpMs) {
        TreeSet<Long> kept = new TreeSet<>();
        boolean isChanged = false;
        for (long member : local) {
            Long caughtUp = caughtUpMs.get(member);
            boolean isLagging = caughtUp == null || nowMs - caughtUp > maxNotCaughtUpMs;
            if (member != localBrokerId && (!liveSlaveIds.contains(member) || isLagging)) {
                isChanged = true;
            } else {
                kept.add(member);
            }
        }
        kept.add(localBrokerId);
        Set<Long> result = Collections.unmodifiableSet(kept);
        if (isChanged) {
            markSynchronizing(result, nowMs);
        }
        return result;
    }

    /** The set last proposed while synchronizing (empty otherwise). */
    synchronized Set<Long> proposed() {
        return isSynchronizing ? proposed : Set.of();
    }

    private void markSynchronizing(Set<Long> proposal, long nowMs) {
        proposed = proposal;
        isSynchronizing = true;
        lastProposal = proposal;
        lastProposalMs = nowMs;
    }

    private static Set<Long> sorted(Set<Long> ids) {
        return Collections.unmodifiableSet(new TreeSet<>(ids));
    }
}
