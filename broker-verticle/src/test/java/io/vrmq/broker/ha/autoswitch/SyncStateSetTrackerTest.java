package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RocketMQ's SyncStateSet rules on a master, without sockets. */
class SyncStateSetTrackerTest {
    private static final long REPROPOSE_MS = 5_000;

    @Test
    void aSlaveIsProposedOnlyOnceAtTheConfirmOffsetAndInsideTheCurrentEpoch() {
        SyncStateSetTracker tracker = new SyncStateSetTracker(REPROPOSE_MS);
        tracker.adopt(Set.of(1L), 1);
        assertEquals(Optional.empty(), tracker.expand(2, 99, 100, 0, 0), "below the confirm offset");
        assertEquals(Optional.empty(), tracker.expand(2, 150, 100, 200, 0), "below the current epoch's start");
        assertEquals(Optional.of(Set.of(1L, 2L)), tracker.expand(2, 250, 100, 200, 0));
        assertTrue(tracker.isSynchronizing());
        assertEquals(Set.of(1L), tracker.local(), "the controller has not answered");
        assertEquals(Set.of(1L, 2L), tracker.effective(), "the union counts meanwhile");
        assertEquals(2, tracker.inSyncCount());
        assertEquals(Optional.empty(), tracker.expand(2, 300, 100, 200, 1_000), "the same proposal is in flight");
        assertEquals(Optional.of(Set.of(1L, 2L)), tracker.expand(2, 300, 100, 200, REPROPOSE_MS), "proposed again");

        assertTrue(tracker.adopt(Set.of(1L, 2L), 2));
        assertFalse(tracker.isSynchronizing());
        assertEquals(Optional.empty(), tracker.expand(2, 400, 100, 200, 9_000), "already a member");
        assertFalse(tracker.adopt(Set.of(1L), 1), "an older epoch is ignored");
        assertEquals(Set.of(1L, 2L), tracker.local());
    }

    @Test
    void shrinkDropsSlavesWithoutALinkOrNotCaughtUpInTimeAndKeepsTheMaster() {
        SyncStateSetTracker tracker = new SyncStateSetTracker(REPROPOSE_MS);
        tracker.adopt(Set.of(1L, 2L, 3L, 4L), 3);
        tracker.caughtUp(2, 10_000);
        tracker.caughtUp(3, 1_000);
        tracker.caughtUp(4, 10_000);
        assertEquals(Set.of(1L, 2L), tracker.shrink(Set.of(2L, 3L), 1, 12_000, 5_000),
            "3 lags for 11 s, 4 has no link");
        assertTrue(tracker.isSynchronizing());
        assertEquals(Set.of(1L, 2L, 3L, 4L), tracker.effective(), "the local set stays until the controller answers");
        assertEquals(Set.of(5L), Set.copyOf(new SyncStateSetTracker(REPROPOSE_MS).shrink(Set.of(), 5, 0, 1)),
            "this broker is always in it");
    }

    @Test
    void aMemberWhoseLinkDropsIsProposedOutButCountsUntilTheControllerAgrees() {
        SyncStateSetTracker tracker = new SyncStateSetTracker(REPROPOSE_MS);
        tracker.adopt(Set.of(1L, 2L), 2);
        assertEquals(Optional.of(Set.of(1L)), tracker.dropOnDisconnect(2, 0));
        assertEquals(Set.of(1L, 2L), tracker.local());
        assertEquals(Set.of(1L, 2L), tracker.effective(), "still waited for");
        assertEquals(2, tracker.inSyncCount());
        assertEquals(Optional.empty(), tracker.dropOnDisconnect(3, 0), "not a member");

        tracker.adopt(Set.of(1L), 3);
        assertEquals(Set.of(1L), tracker.effective());
    }

    @Test
    void configTakesRocketMqsKeysAndDefaults() {
        AutoSwitchConfig defaults = AutoSwitchConfig.from(new JsonObject());
        assertEquals(new AutoSwitchConfig(false, 1, 1, 15_000, false, false, false), defaults);
        AutoSwitchConfig set = AutoSwitchConfig.from(new JsonObject().put("allAckInSyncStateSet", true)
            .put("inSyncReplicas", 2).put("minInSyncReplicas", 2).put("haMaxTimeSlaveNotCatchup", 500)
            .put("syncFromLastFile", true).put("asyncLearner", true).put("readUnCommitted", true));
        assertEquals(new AutoSwitchConfig(true, 2, 2, 500, true, true, true), set);
        assertFalse(set.gatesDispatch(true), "readUnCommitted: no gate");
        assertTrue(defaults.gatesDispatch(false), "a slave gates");
        assertFalse(defaults.gatesDispatch(true), "a master without allAck does not");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> AutoSwitchConfig.from(new JsonObject().put("minInSyncReplicas", 0)));
        assertEquals("invalid minInSyncReplicas: 0", bad.getMessage());
    }
}
