package io.vrmq.controller.decision;

import io.vrmq.controller.state.ApplyBrokerIdEvent;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.UpdateBrokerAddressEvent;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class BrokerIdDecisionsTest {
    private static final String SET = States.SET;
    private static final String CLUSTER = FakeLiveness.CLUSTER;

    private static Decision apply(ControllerState state, long id, String checkCode) {
        return BrokerIdDecisions.applyBrokerId(state, new ApplyBrokerIdRequest(CLUSTER, SET, id, checkCode));
    }

    @Test
    void theNextIdStartsAtOneAndFollowsEveryApply() {
        assertEquals("1", BrokerIdDecisions.nextBrokerId(ControllerState.EMPTY, CLUSTER, SET).header()
            .get("nextBrokerId"));
        Decision next = BrokerIdDecisions.nextBrokerId(States.registered(2), CLUSTER, SET);
        assertEquals(Map.of("clusterName", CLUSTER, "brokerName", SET, "nextBrokerId", "3"), next.header());
    }

    @Test
    void anUnknownSetAcceptsOnlyIdOne() {
        Decision refused = apply(ControllerState.EMPTY, 2, "127.0.0.1:1;1");
        assertEquals(ResponseCode.CONTROLLER_BROKER_ID_INVALID, refused.code());
        assertEquals(Map.of("clusterName", CLUSTER, "brokerName", SET), refused.header());
        Decision accepted = apply(ControllerState.EMPTY, 1, "127.0.0.1:1;1");
        assertEquals(ResponseCode.SUCCESS, accepted.code());
        assertEquals(new ApplyBrokerIdEvent(CLUSTER, SET, 1, "127.0.0.1:1", "127.0.0.1:1;1"), accepted.event());
    }

    @Test
    void aTakenIdIsAcceptedAgainOnlyWithTheSameCheckCode() {
        ControllerState state = States.registered(1);
        String code = States.address(1) + ";1";
        assertEquals(ResponseCode.SUCCESS, apply(state, 1, code).code());
        assertEquals(ResponseCode.CONTROLLER_BROKER_ID_INVALID, apply(state, 1, "127.0.0.1:2;2").code());
        assertEquals(ResponseCode.SUCCESS, apply(state, 5, "127.0.0.1:2;2").code(), "an unused id");
    }

    @Test
    void registeringNeedsAKnownSetAndId() {
        FakeLiveness liveness = new FakeLiveness();
        assertEquals(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, BrokerIdDecisions.registerBroker(
            ControllerState.EMPTY, liveness, new RegisterBrokerRequest(CLUSTER, SET, 1, "a:1")).code());
        Decision unknownId = BrokerIdDecisions.registerBroker(States.registered(1), liveness,
            new RegisterBrokerRequest(CLUSTER, SET, 2, "a:1"));
        assertEquals(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, unknownId.code());
        assertEquals(Map.of("clusterName", CLUSTER, "brokerName", SET), unknownId.header());
    }

    @Test
    void registeringNamesOnlyAnAliveMaster() {
        ControllerState state = States.withMaster(2, 1);
        RegisterBrokerRequest register = new RegisterBrokerRequest(CLUSTER, SET, 2, States.address(2));
        Decision withoutLiveMaster = BrokerIdDecisions.registerBroker(state, new FakeLiveness(), register);
        assertEquals(ResponseCode.SUCCESS, withoutLiveMaster.code());
        assertNull(withoutLiveMaster.header().get("masterBrokerId"));
        assertEquals(new SyncStateSetBody(Set.of(1L), 1), withoutLiveMaster.body());
        Decision withLiveMaster = BrokerIdDecisions.registerBroker(state, new FakeLiveness().alive(SET, 1), register);
        assertEquals(Map.of("clusterName", CLUSTER, "brokerName", SET, "masterBrokerId", "1", "masterAddress",
            States.address(1), "masterEpoch", "1", "syncStateSetEpoch", "1"), withLiveMaster.header());
        assertNull(withLiveMaster.event(), "same address, nothing to log");
    }

    @Test
    void aMovedBrokerGetsItsAddressUpdated() {
        Decision moved = BrokerIdDecisions.registerBroker(States.registered(1), new FakeLiveness(),
            new RegisterBrokerRequest(CLUSTER, SET, 1, "10.0.0.9:10911"));
        assertEquals(new UpdateBrokerAddressEvent(CLUSTER, SET, 1, "10.0.0.9:10911"), moved.event());
    }
}
