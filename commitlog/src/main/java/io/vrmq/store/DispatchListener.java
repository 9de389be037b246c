package io.vrmq.store;

/**
 * Told each time the dispatcher has written a ConsumeQueue entry, so held pulls of that queue can be answered.
 * Called on the dispatcher thread, in commit-log order: return quickly and never block (hand off to your own
 * thread); an exception is logged and does not stop dispatching.
 */
@FunctionalInterface
public interface DispatchListener {
    /**
     * @param newMaxQueueOffset the queue's max offset after this entry (this entry's queue offset + 1)
     * @param tagsCode          the entry's tag hash, for filtering held pulls
     * @param storeTimestamp    the record's store time
     */
    void onDispatched(String topic, int queueId, long newMaxQueueOffset, long tagsCode, long storeTimestamp);

    /**
     * Told after a dispatch round that wrote at least one entry: every entry reported before it is in its
     * ConsumeQueue, so a reader woken now finds all of them at once (one answer for a round's messages, not one per
     * message). Dispatcher thread (or whichever thread ran the round); same rules as {@link #onDispatched}.
     */
    default void onRoundDispatched() {
    }
}
