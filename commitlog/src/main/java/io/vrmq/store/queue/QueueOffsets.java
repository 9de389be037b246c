package io.vrmq.store.queue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The next queue offset of every topic-queue, assigned by the writer at append time (the ConsumeQueue entry is
 * written later by the dispatcher). Seeded at open from the recovered ConsumeQueues, which already hold every record
 * of the CommitLog - damaged ones as blanks - so an offset once handed out is never handed out again.
 *
 * <p>Threads: the writer only; {@link #removeTopic} for a topic that no longer receives appends.
 */
public final class QueueOffsets {
    private final Map<String, Map<Integer, long[]>> next = new ConcurrentHashMap<>();

    /** Sets the next offset of a queue (recovery). */
    public void seed(String topic, int queueId, long nextOffset) {
        counter(topic, queueId)[0] = nextOffset;
    }

    /**
     * Makes a queue known at next offset 0 when it has no counter yet; a counter that exists (recovered, raised to a
     * reserved bound, or advanced by appends) is left as it is. True when the counter was created. Writer only.
     */
    public boolean addIfAbsent(String topic, int queueId) {
        Map<Integer, long[]> byId = next.computeIfAbsent(topic, t -> new ConcurrentHashMap<>());
        return !byId.containsKey(queueId) && byId.putIfAbsent(queueId, new long[1]) == null;
    }

    /** Queues with a counter. Writer only. */
    public int queueCount() {
        int count = 0;
        for (Map<Integer, long[]> byId : next.values()) {
            count += byId.size();
        }
        return count;
    }

    /** Raises the next offset of a queue to at least {@code nextOffset} (a rebuild). Writer only. */
    public void raise(String topic, int queueId, long nextOffset) {
        long[] counter = counter(topic, queueId);
        counter[0] = Math.max(counter[0], nextOffset);
    }

    /**
     * Sets every counter to 0 (before a rebuild, which then seeds and raises them): the queues stay known, so queues
     * declared before a role switch or a truncation still share the first bound write after it. For offsets this is
     * the same as forgetting them (a queue without a counter starts at 0 too). Writer only.
     */
    public void resetAll() {
        next.values().forEach(byId -> byId.values().forEach(counter -> counter[0] = 0));
    }

    /** The next offset of a queue without creating it: 0 when unknown. Writer only. */
    public long peek(String topic, int queueId) {
        Map<Integer, long[]> byId = next.get(topic);
        long[] counter = byId == null ? null : byId.get(queueId);
        return counter == null ? 0 : counter[0];
    }

    /** Returns the next offset and advances it by {@code count}. Writer only. */
    public long take(String topic, int queueId, int count) {
        long[] counter = counter(topic, queueId);
        long offset = counter[0];
        counter[0] = offset + count;
        return offset;
    }

    /** Gives back the {@code count} offsets just taken (the append then failed before writing). Writer only. */
    public void giveBack(String topic, int queueId, int count) {
        counter(topic, queueId)[0] -= count;
    }

    /** Calls {@code action} with every known queue and its next offset. Writer only. */
    public void forEach(QueueAction action) {
        next.forEach((topic, byId) -> byId.forEach((queueId, counter) -> action.accept(topic, queueId, counter[0])));
    }

    /** What {@link #forEach} calls. */
    @FunctionalInterface
    public interface QueueAction {
        void accept(String topic, int queueId, long nextOffset);
    }

    public void removeTopic(String topic) {
        next.remove(topic);
    }

    private long[] counter(String topic, int queueId) {
        return next.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()).computeIfAbsent(queueId, id -> new long[1]);
    }
}
