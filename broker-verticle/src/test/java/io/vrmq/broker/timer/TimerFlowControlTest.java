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
        TimerFlowControl flow = TimerFlowControl.of(3, 1_000);
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
        TimerFlowControl flow = TimerFlowControl.of(1, 2);
        flow.added(1_000);
        flow.added(1_000);
        assertThrows(RemotingCommandException.class, () -> flow.requireAdmitted(5_000), "two held in all");
        flow.removed(1_000, 2);
        assertEquals(0, flow.heldCount());
        assertDoesNotThrow(() -> flow.requireAdmitted(1_000));
    }

    @Test
    void limitsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> TimerFlowControl.of(0, 1));
        assertThrows(IllegalArgumentException.class, () -> TimerFlowControl.of(1, 0));
    }
}
