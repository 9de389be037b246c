package io.vrmq.broker.timer;

import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** RocketMQ's per-slot congestion rule and our cap on all held timer messages. */
class TimerFlowControlTest {

    @Test
    void aSlotUpToTheLimitTakesMoreAndFromTwiceTheLimitRefusesAll() {
        TimerFlowControl flow = TimerFlowControl.of(3, 1_000, 1);
        for (int i = 0; i < 3; i++) {
            flow.added(1_000);
        }
        assertDoesNotThrow(() -> flow.requireAdmitted(1_000));
        for (int i = 0; i < 3; i++) {
            flow.added(1_000);
        }
        RemotingCommandException refused = assertThrows(RemotingCommandException.class,
            () -> flow.requireAdmitted(1_000));
        assertEquals(ResponseCode.SYSTEM_ERROR, refused.responseCode());
        assertDoesNotThrow(() -> flow.requireAdmitted(2_000), "another second is not congested");
    }

    @Test
    void deliveredMessagesFreeTheirSlotAndTheTotal() {
        TimerFlowControl flow = TimerFlowControl.of(1, 2, 1);
        flow.added(1_000);
        flow.added(1_000);
        assertThrows(RemotingCommandException.class, () -> flow.requireAdmitted(5_000), "two held in all");
        flow.removed(1_000, 2);
        assertEquals(0, flow.heldCount());
        assertDoesNotThrow(() -> flow.requireAdmitted(1_000));
    }

    @Test
    void limitsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> TimerFlowControl.of(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> TimerFlowControl.of(1, 0, 1));
        IllegalArgumentException noKeys = assertThrows(IllegalArgumentException.class,
            () -> TimerFlowControl.of(1, 1, 0));
        assertEquals("invalid timerMaxHeldDeleteKeys: 0", noKeys.getMessage());
    }

    /** Recalls are refused with SYSTEM_BUSY while the recalled keys held reach timerMaxHeldDeleteKeys. */
    @Test
    void recallsAreBusyAtTheDeleteKeyLimitAndAdmittedBelowIt() {
        TimerFlowControl flow = TimerFlowControl.of(1_000, 1_000, 2);
        flow.deleteKeysHeld(1);
        assertDoesNotThrow(flow::requireRecallAdmitted);
        flow.deleteKeysHeld(2);
        RemotingCommandException busy = assertThrows(RemotingCommandException.class, flow::requireRecallAdmitted);
        assertEquals(ResponseCode.SYSTEM_BUSY, busy.responseCode());
        assertEquals("recall is under flow control: 2 recalled timer messages held, timerMaxHeldDeleteKeys is 2",
            busy.getMessage());
        flow.reset();
        assertDoesNotThrow(flow::requireRecallAdmitted);
    }
}
