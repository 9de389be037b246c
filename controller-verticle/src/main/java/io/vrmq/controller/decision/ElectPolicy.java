package io.vrmq.controller.decision;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Chooses a master among a broker set's replicas, RocketMQ's {@code DefaultElectPolicy}: first among the SyncStateSet,
 * then (only when unclean elections are allowed) among all replicas; in each round only replicas this node hears
 * from are candidates.
 * <ol>
 *   <li>the old master, if it is a candidate and no other id is preferred;</li>
 *   <li>a preferred id (admin {@code electMaster}): chosen if it is a candidate, else nobody;</li>
 *   <li>otherwise the candidate with the highest heartbeat epoch, then the highest max offset, then the lowest
 *   election priority.</li>
 * </ol>
 * Two deliberate differences from 5.5.0, whose comparator casts the offset difference to int (so offsets more than
 * 2 GiB apart could order the wrong way) and whose TreeSet drops candidates that compare equal: offsets are compared
 * as longs and a full tie goes to the lowest id, so the choice is well defined. Stateless: any thread.
 */
public final class ElectPolicy {
    private static final Comparator<ReplicaHeartbeat> BEST_FIRST = Comparator
        .comparingInt(ReplicaHeartbeat::epoch).reversed()
        .thenComparing(Comparator.comparingLong(ReplicaHeartbeat::maxOffset).reversed())
        .thenComparingInt(ReplicaHeartbeat::electionPriority)
        .thenComparingLong(ReplicaHeartbeat::brokerId);

    /**
     * @param allReplicas every registered replica when unclean elections are allowed, else null
     * @param oldMaster   the current master, or null
     * @param preferred   the id an admin asked for, or null
     * @return the new master (which may be {@code oldMaster}), or null when nobody qualifies
     */
    public Long elect(BrokerLiveness liveness, String clusterName, String brokerName, Set<Long> syncStateSet,
                      Set<Long> allReplicas, Long oldMaster, Long preferred) {
        Long chosen = syncStateSet == null ? null
            : electAmong(liveness, clusterName, brokerName, syncStateSet, oldMaster, preferred);
        if (chosen == null && allReplicas != null) {
            chosen = electAmong(liveness, clusterName, brokerName, allReplicas, oldMaster, preferred);
        }
        return chosen;
    }

    private Long electAmong(BrokerLiveness liveness, String clusterName, String brokerName, Set<Long> replicas,
                            Long oldMaster, Long preferred) {
        List<Long> candidates = replicas.stream().sorted()
            .filter(id -> liveness.isAlive(clusterName, brokerName, id)).toList();
        if (candidates.isEmpty()) {
            return null;
        }
        if (oldMaster != null && candidates.contains(oldMaster) && (preferred == null || preferred.equals(oldMaster))) {
            return oldMaster;
        }
        if (preferred != null) {
            return candidates.contains(preferred) ? preferred : null;
        }
        return candidates.stream()
            .map(id -> liveness.heartbeatOf(clusterName, brokerName, id))
            .filter(Objects::nonNull)
            .min(BEST_FIRST)
            .map(ReplicaHeartbeat::brokerId)
            .orElse(candidates.get(0));
    }
}
