package io.vrmq.controller.decision;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ElectPolicyTest {
    private static final String SET = States.SET;
    private static final String CLUSTER = FakeLiveness.CLUSTER;

    private final ElectPolicy policy = new ElectPolicy();

    @Test
    void anAliveOldMasterInTheSyncStateSetIsKept() {
        FakeLiveness liveness = new FakeLiveness().alive(SET, 1, 1, 0, 9).alive(SET, 2, 5, 100, 0);
        assertEquals(1L, policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L), null, 1L, null));
    }

    @Test
    void theHighestEpochWinsThenTheHighestOffsetThenTheLowestPriority() {
        FakeLiveness liveness = new FakeLiveness().alive(SET, 2, 3, 10, 0).alive(SET, 3, 4, 5, 9);
        assertEquals(3L, policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L, 3L), null, 1L, null), "epoch first");
        liveness.alive(SET, 3, 3, 5, 0);
        assertEquals(2L, policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L, 3L), null, 1L, null), "then offset");
        liveness.alive(SET, 3, 3, 10, -1);
        assertEquals(3L, policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L, 3L), null, 1L, null), "then priority");
    }

    /** 5.5.0 casts the offset difference to int: offsets 2^32 apart would compare as equal and 2^31 apart reversed. */
    @Test
    void offsetsFarApartCompareAsLongs() {
        long far = 1L << 32;
        FakeLiveness liveness = new FakeLiveness().alive(SET, 2, 1, 1, 0).alive(SET, 3, 1, 1 + far, 5);
        assertEquals(3L, policy.elect(liveness, CLUSTER, SET, Set.of(2L, 3L), null, 1L, null));
        liveness.alive(SET, 2, 1, 1L << 31, 0).alive(SET, 3, 1, 0, 0);
        assertEquals(2L, policy.elect(liveness, CLUSTER, SET, Set.of(2L, 3L), null, 1L, null));
    }

    @Test
    void aFullTieGoesToTheLowestId() {
        FakeLiveness liveness = new FakeLiveness().alive(SET, 3, 1, 1, 1).alive(SET, 2, 1, 1, 1);
        assertEquals(2L, policy.elect(liveness, CLUSTER, SET, Set.of(3L, 2L), null, 1L, null));
    }

    @Test
    void aPreferredIdIsChosenOnlyIfItIsACandidate() {
        FakeLiveness liveness = new FakeLiveness().alive(SET, 1).alive(SET, 2).alive(SET, 3);
        assertEquals(3L, policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L, 3L), null, 1L, 3L));
        assertNull(policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L), null, 1L, 3L), "3 is not in sync");
        liveness.dead(SET, 3);
        assertNull(policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L, 3L), null, 1L, 3L), "3 is not alive");
        assertEquals(1L, policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L), null, 1L, 1L), "the old master");
    }

    @Test
    void nobodyWhenNoReplicaOfTheSyncStateSetIsAlive() {
        FakeLiveness liveness = new FakeLiveness().alive(SET, 3);
        assertNull(policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L), null, 1L, null));
    }

    @Test
    void anUncleanElectionFallsBackToAllReplicas() {
        FakeLiveness liveness = new FakeLiveness().alive(SET, 3);
        assertEquals(3L, policy.elect(liveness, CLUSTER, SET, Set.of(1L, 2L), Set.of(1L, 2L, 3L), 1L, null));
    }
}
