package io.vrmq.broker.controller;

import java.util.Set;
import java.util.function.Consumer;

/**
 * The part of AutoSwitch replication the controller agent reads and steers: the SyncStateSet (kept by replication,
 * changed only with the controller's consent), the last epoch and the confirm offset it reports in heartbeats.
 * Confined to the broker's context.
 */
public interface ControllerModeHa {
    /** Master: replication proposes a larger SyncStateSet when a slave caught up; the agent asks the controller. */
    void onSyncStateSetExpansion(Consumer<Set<Long>> proposer);

    /** Master: the SyncStateSet without the slaves that fell behind or disconnected (the master itself included). */
    Set<Long> maybeShrinkSyncStateSet();

    /** Adopts the set the controller agreed to. */
    void setSyncStateSet(Set<Long> syncStateSet, int syncStateSetEpoch);

    Set<Long> syncStateSet();

    int syncStateSetEpoch();

    /** The newest epoch in the epoch file (0 when it is empty). */
    int lastEpoch();

    long confirmOffset();
}
