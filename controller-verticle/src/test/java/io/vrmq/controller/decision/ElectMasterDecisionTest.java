package io.vrmq.controller.decision;

import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.ElectMasterEvent;
import io.vrmq.remoting.body.controller.ElectMasterResponseBody;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ElectMasterDecisionTest {
    private static final String SET = States.SET;

    private final ElectMasterDecision decision = new ElectMasterDecision();

    private Decision elect(ControllerState state, FakeLiveness liveness, long brokerId, boolean designate) {
        return decision.decide(state, liveness, new ElectMasterRequest(FakeLiveness.CLUSTER, SET, brokerId,
            designate), false);
    }

    @Test
    void anUnknownSetMustRegisterFirst() {
        Decision result = elect(ControllerState.EMPTY, new FakeLiveness(), 1, false);
        assertEquals(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, result.code());
        assertNull(result.event());
    }

    @Test
    void theFirstElectionTakesTheRequesterWithoutALivenessCheck() {
        Decision result = elect(States.registered(2), new FakeLiveness(), 2, false);
        assertEquals(ResponseCode.SUCCESS, result.code());
        assertEquals(Map.of("masterBrokerId", "2", "masterAddress", States.address(2), "masterEpoch", "1",
            "syncStateSetEpoch", "1"), result.header());
        ElectMasterResponseBody body = (ElectMasterResponseBody) result.body();
        assertEquals(Set.of(2L), body.syncStateSet());
        assertEquals(Map.of(1L, States.address(1), 2L, States.address(2)), body.brokerMemberGroup().brokerAddrs());
        assertEquals(new ElectMasterEvent(SET, 2L, 0, 0), result.event());
    }

    @Test
    void aFirstElectionByAnUnregisteredIdFallsToThePolicy() {
        Decision result = elect(States.registered(1), new FakeLiveness(), 7, false);
        assertEquals(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, result.code(), "nobody is in a SyncStateSet yet");
    }

    @Test
    void anAliveMasterStillExists() {
        Decision result = elect(States.withSyncStateSet(2, 1, 1L, 2L), new FakeLiveness().alive(SET, 1).alive(SET, 2),
            2, false);
        assertEquals(ResponseCode.CONTROLLER_MASTER_STILL_EXIST, result.code());
        assertEquals(Map.of("masterBrokerId", "1", "masterAddress", States.address(1), "masterEpoch", "1",
            "syncStateSetEpoch", "2"), result.header());
        ElectMasterResponseBody body = (ElectMasterResponseBody) result.body();
        assertNull(body.brokerMemberGroup());
        assertEquals(Set.of(1L, 2L), body.syncStateSet());
        assertNull(result.event());
    }

    @Test
    void aDeadMasterIsReplacedFromTheSyncStateSet() {
        Decision result = elect(States.withSyncStateSet(3, 1, 1L, 2L), new FakeLiveness().alive(SET, 2).alive(SET, 3),
            ElectMasterRequest.CONTROLLER_TRIGGER, false);
        assertEquals(ResponseCode.SUCCESS, result.code());
        assertEquals("2", result.header().get("masterBrokerId"), "3 is alive but not in sync");
        assertEquals("2", result.header().get("masterEpoch"));
        assertEquals("3", result.header().get("syncStateSetEpoch"));
        assertEquals(new ElectMasterEvent(SET, 2L, 1, 2), result.event());
    }

    @Test
    void nobodyAfterAControllerTriggerRecordsThatTheMasterIsLost() {
        Decision result = elect(States.withMaster(2, 1), new FakeLiveness().alive(SET, 2),
            ElectMasterRequest.CONTROLLER_TRIGGER, false);
        assertEquals(ResponseCode.CONTROLLER_MASTER_NOT_AVAILABLE, result.code());
        assertEquals(new ElectMasterEvent(SET, null, 1, 1), result.event());
        assertEquals(Map.of(), result.header());
    }

    @Test
    void nobodyAfterABrokerTriggerChangesNothing() {
        Decision result = elect(States.withMaster(2, 1), new FakeLiveness().alive(SET, 2), 2, false);
        assertEquals(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, result.code());
        assertNull(result.event());
    }

    @Test
    void anAdminDesignatesAnAliveInSyncReplica() {
        ControllerState state = States.withSyncStateSet(2, 1, 1L, 2L);
        FakeLiveness liveness = new FakeLiveness().alive(SET, 1).alive(SET, 2);
        Decision result = elect(state, liveness, 2, true);
        assertEquals(ResponseCode.SUCCESS, result.code());
        assertEquals("2", result.header().get("masterBrokerId"));
        assertEquals(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, elect(state, liveness.dead(SET, 2), 2, true).code());
    }

    @Test
    void anUncleanElectionMayTakeAReplicaOutsideTheSyncStateSet() {
        ControllerState state = States.withMaster(2, 1);
        FakeLiveness liveness = new FakeLiveness().alive(SET, 2);
        Decision result = decision.decide(state, liveness, ElectMasterRequest.ofControllerTrigger(
            FakeLiveness.CLUSTER, SET), true);
        assertEquals(ResponseCode.SUCCESS, result.code());
        assertEquals("2", result.header().get("masterBrokerId"));
    }
}
