package io.vrmq.controller.heartbeat;

import io.vrmq.controller.decision.ReplicaHeartbeat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrokerLiveTableTest {
    private static final BrokerIdentity BROKER = new BrokerIdentity("c1", "b1", 2);

    private final AtomicLong nowMs = new AtomicLong(1_000);
    private final BrokerLiveTable table = new BrokerLiveTable(nowMs::get);

    private static HeartbeatReport report(int epoch, long maxOffset, long timeoutMs) {
        return new HeartbeatReport(BROKER, "127.0.0.1:10911", epoch, maxOffset, maxOffset, timeoutMs, 5);
    }

    @Test
    void aReplicaIsAliveUntilItsOwnTimeoutPasses() {
        assertTrue(table.onHeartbeat(report(1, 10, 3_000), null), "new");
        assertFalse(table.onHeartbeat(report(1, 10, 3_000), null), "known");
        nowMs.addAndGet(3_000);
        assertTrue(table.isAlive("c1", "b1", 2));
        assertEquals(List.of(), table.expire());
        nowMs.incrementAndGet();
        assertFalse(table.isAlive("c1", "b1", 2));
        assertEquals(List.of(BROKER), table.expire().stream().map(BrokerLiveTable.Entry::identity).toList());
        assertEquals(0, table.size());
    }

    @Test
    void epochAndOffsetOnlyMoveForward() {
        table.onHeartbeat(report(2, 100, 3_000), null);
        table.onHeartbeat(report(2, 50, 3_000), null);
        table.onHeartbeat(report(1, 500, 3_000), null);
        ReplicaHeartbeat kept = table.heartbeatOf("c1", "b1", 2);
        assertEquals(2, kept.epoch());
        assertEquals(100, kept.maxOffset());
        table.onHeartbeat(report(3, 10, 3_000), null);
        assertEquals(3, table.heartbeatOf("c1", "b1", 2).epoch());
        assertEquals(10, table.heartbeatOf("c1", "b1", 2).maxOffset());
    }

    @Test
    void theClusterIsPartOfTheKey() {
        table.onHeartbeat(report(1, 1, 3_000), null);
        assertFalse(table.isAlive("other", "b1", 2));
        assertTrue(table.isAlive("c1", "b1", 2));
    }
}
