package io.vrmq.controller.decision;

import io.vrmq.controller.state.CleanBrokerDataEvent;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.TreeSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CleanBrokerDataDecisionTest {
    private static final String SET = States.SET;

    private static Decision clean(ControllerState state, FakeLiveness liveness, String ids, boolean living) {
        return CleanBrokerDataDecision.decide(state, liveness, new CleanBrokerDataRequest(FakeLiveness.CLUSTER, SET,
            ids, living));
    }

    @Test
    void aSetWithAMasterIsNotCleanedWholeUnlessLivingBrokersMayBe() {
        ControllerState state = States.withMaster(2, 1);
        assertEquals(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA, clean(state, new FakeLiveness(), null,
            false).code());
        assertEquals(new CleanBrokerDataEvent(SET, null), clean(state, new FakeLiveness(), "", true).event());
    }

    @Test
    void aListedAliveReplicaIsNotCleanedUnlessLivingBrokersMayBe() {
        ControllerState state = States.withMaster(2, 1);
        FakeLiveness liveness = new FakeLiveness().alive(SET, 2);
        assertEquals(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA, clean(state, liveness, "2", false)
            .code());
        assertEquals(new CleanBrokerDataEvent(SET, new TreeSet<>(Set.of(2L))), clean(state, liveness, "2", true)
            .event(), "5.5.0 would drop the whole set here: with -l it never reads the id list");
        assertEquals(new CleanBrokerDataEvent(SET, new TreeSet<>(Set.of(2L))), clean(state, liveness.dead(SET, 2),
            "2", false).event());
    }

    @Test
    void aMalformedListOrAnUnknownSetIsRefused() {
        assertEquals(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA, clean(States.registered(2),
            new FakeLiveness(), "1;x", false).code());
        assertEquals(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA, clean(ControllerState.EMPTY,
            new FakeLiveness(), "1", false).code());
    }
}
