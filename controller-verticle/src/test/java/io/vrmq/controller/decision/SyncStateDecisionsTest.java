package io.vrmq.controller.decision;

import io.vrmq.controller.body.BrokerReplicasInfo;
import io.vrmq.controller.state.AlterSyncStateSetEvent;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Each check of CONTROLLER_ALTER_SYNC_STATE_SET in RocketMQ's order, and the reads. */
class SyncStateDecisionsTest {
    private static final String SET = States.SET;

    /** Set b1: replicas 1..3, master 1 (epoch 1), SyncStateSet {1} (epoch 1); 1 and 2 alive. */
    private final ControllerState state = States.withMaster(3, 1);
    private final FakeLiveness liveness = new FakeLiveness().alive(SET, 1).alive(SET, 2);

    private Decision alter(String brokerName, Long master, int masterEpoch, Set<Long> set, int setEpoch) {
        return SyncStateDecisions.alterSyncStateSet(state, liveness, new AlterSyncStateSetRequest(brokerName, master,
            masterEpoch, set, setEpoch));
    }

    @Test
    void aValidChangeGetsTheNextSetEpoch() {
        Decision result = alter(SET, 1L, 1, Set.of(1L, 2L), 1);
        assertEquals(ResponseCode.SUCCESS, result.code());
        assertEquals(Map.of("newSyncStateSetEpoch", "2"), result.header());
        assertEquals(new SyncStateSetBody(Set.of(1L, 2L), 2), result.body());
        assertEquals(new AlterSyncStateSetEvent(SET, 1, 1, 1, new TreeSet<>(Set.of(1L, 2L))), result.event());
    }

    @Test
    void eachCheckRefusesWithItsCodeInOrder() {
        assertRefused(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, alter("unknown", 1L, 1, Set.of(1L, 2L), 1));
        assertRefused(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, alter(SET, 9L, 9, Set.of(1L), 9));
        assertRefused(ResponseCode.CONTROLLER_INVALID_MASTER, alter(SET, 2L, 9, Set.of(1L, 2L), 9));
        assertRefused(ResponseCode.CONTROLLER_INVALID_MASTER, alter(SET, null, 1, Set.of(1L, 2L), 1));
        assertRefused(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH, alter(SET, 1L, 0, Set.of(1L, 2L), 9));
        assertRefused(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, alter(SET, 1L, 1, Set.of(1L, 2L), 0));
        assertRefused(ResponseCode.CONTROLLER_INVALID_REPLICAS, alter(SET, 1L, 1, Set.of(1L, 9L), 1));
        assertRefused(ResponseCode.CONTROLLER_BROKER_NOT_ALIVE, alter(SET, 1L, 1, Set.of(1L, 3L), 1));
        assertRefused(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, alter(SET, 1L, 1, Set.of(2L), 1));
    }

    private static void assertRefused(int code, Decision result) {
        assertEquals(code, result.code(), result.remark());
        assertEquals(Map.of("newSyncStateSetEpoch", "0"), result.header(), "RocketMQ's int field is always sent");
        assertNull(result.event());
    }

    @Test
    void replicaInfoNamesTheMasterAndTheSet() {
        Decision result = SyncStateDecisions.replicaInfo(state, SET);
        assertEquals(ResponseCode.SUCCESS, result.code());
        assertEquals(Map.of("masterBrokerId", "1", "masterAddress", States.address(1), "masterEpoch", "1"),
            result.header());
        assertEquals(new SyncStateSetBody(Set.of(1L), 1), result.body());
        assertEquals(ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST,
            SyncStateDecisions.replicaInfo(state, "unknown").code());
    }

    @Test
    void syncStateDataSplitsReplicasInAndOutOfSync() {
        BrokerReplicasInfo body = (BrokerReplicasInfo) SyncStateDecisions.syncStateData(state, liveness,
            List.of(SET, "unknown")).body();
        assertEquals(Set.of(SET), body.replicasInfoTable().keySet());
        BrokerReplicasInfo.ReplicasInfo info = body.replicasInfoTable().get(SET);
        assertEquals(List.of(new BrokerReplicasInfo.ReplicaIdentity(SET, 1, States.address(1), true)),
            info.inSyncReplicas());
        assertEquals(List.of(new BrokerReplicasInfo.ReplicaIdentity(SET, 2, States.address(2), true),
            new BrokerReplicasInfo.ReplicaIdentity(SET, 3, States.address(3), false)), info.notInSyncReplicas());
    }

    @Test
    void aSetNeedsReelectionWhenItsMasterIsGoneAndAReplicaIsAlive() {
        assertEquals(List.of(), SyncStateDecisions.setsNeedingReelection(state, liveness));
        liveness.dead(SET, 1);
        assertEquals(List.of(SET), SyncStateDecisions.setsNeedingReelection(state, liveness));
        liveness.dead(SET, 2);
        assertEquals(List.of(), SyncStateDecisions.setsNeedingReelection(state, liveness), "nobody left to elect");
    }
}
