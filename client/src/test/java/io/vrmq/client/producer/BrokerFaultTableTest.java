package io.vrmq.client.producer;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrokerFaultTableTest {
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final BrokerFaultTable faults = new BrokerFaultTable(clock::get);

    @Test
    void aFastSendLeavesTheBrokerAvailable() {
        faults.record("a", 549, false);

        assertTrue(faults.isAvailable("a"));
    }

    @Test
    void aSlowSendAvoidsTheBrokerForAPeriodGrowingWithTheLatency() {
        assertEquals(2_000, BrokerFaultTable.avoidanceFor(550));
        assertEquals(5_000, BrokerFaultTable.avoidanceFor(1_800));
        assertEquals(30_000, BrokerFaultTable.avoidanceFor(20_000));
    }

    @Test
    void aSlowBrokerIsAvailableAgainAfterItsPeriod() {
        faults.record("a", 600, false);

        assertFalse(faults.isAvailable("a"));
        clock.addAndGet(1_999);
        assertFalse(faults.isAvailable("a"));
        clock.addAndGet(1);
        assertTrue(faults.isAvailable("a"));
    }

    @Test
    void aFailedSendAvoidsTheBrokerForTenSeconds() {
        faults.record("a", 3, true);

        clock.addAndGet(9_999);
        assertFalse(faults.isAvailable("a"));
        clock.addAndGet(1);
        assertTrue(faults.isAvailable("a"));
    }

    @Test
    void aFastSendClearsAnEarlierAvoidance() {
        faults.record("a", 3, true);
        faults.record("a", 10, false);

        assertTrue(faults.isAvailable("a"));
    }
}
