package io.vrmq.broker.loops;

import io.vertx.core.json.JsonObject;

/**
 * How the broker spreads and hands over its hot path (keys in {@code broker-defaults.json}), two levers measured on
 * and off with one jar (benchmark/RESULTS.md, "Levers"). Both are off by default (1 loop, one writer task per
 * append, the broker as it was) until a quiet-machine run shows they pay:
 *
 * @param serverSelectorThreads     event loops serving the client connections of listenPort and the fast channel
 *                                  (RocketMQ's NettyServerConfig name for its I/O threads, Apache's default 3); 1 puts
 *                                  every connection on the broker's own event loop
 * @param batchAppendsPerWriterTurn the store's writer takes every waiting send in one turn (one dispatcher wake-up,
 *                                  one flush waiter, one hop back per event loop) instead of one task per append
 * @param maxAppendsPerWriterTurn   at most this many sends stored together in one turn
 * @param readHeldPullsOnDispatcher a held pull whose queue got messages is read on the store's dispatcher thread at
 *                                  the end of the dispatch round and its answer handed to its connection's event loop
 *                                  (one thread hand-off from the dispatch to the answer; ours, default true); false:
 *                                  the dispatcher wakes the hold service's event loop, which reads on a reader thread
 *                                  and answers back on the loop (three hand-offs), as before
 * @param holdCaughtUpPullsAtOnce   a pull that may suspend and asks for its queue's max offset (the consumer has read
 *                                  everything: every pull after a live answer) is held on its event loop without a
 *                                  store read (the max offset is in memory; ours, default true); false: it is read on a
 *                                  reader thread first and held when the read comes back empty (two more hand-offs)
 * @param copyPulledRecords         true (default): a pull answer's records are copied into one pooled direct buffer
 *                                  on the thread that read them, which the socket writes and then releases; false: a
 *                                  composite of the mapped slices, nothing copied. True took 0.81x the backlog drain's
 *                                  broker CPU per message at 1.28x its throughput (benchmark/RESULTS.md, "Pull answers
 *                                  copied by default"); the direct memory the copies hold is bounded by the next key
 * @param maxCopiedPullBytes        with copyPulledRecords: the most direct memory the copies' own pool may hold (they
 *                                  live until their socket wrote them); past it answers are the mapped slices
 * @param dispatchBehindWriter      an append does not wake the store's dispatcher thread: once the send's answer is on
 *                                  its way, the writer thread writes the ConsumeQueue and index entries itself when
 *                                  the dispatcher is parked (one thread wake-up less per send when sends come one at
 *                                  a time); false: every append wakes the dispatcher thread ({@code StoreAccess})
 */
public record HotPathConfig(int serverSelectorThreads, boolean batchAppendsPerWriterTurn,
                            int maxAppendsPerWriterTurn, boolean readHeldPullsOnDispatcher,
                            boolean holdCaughtUpPullsAtOnce, boolean copyPulledRecords, long maxCopiedPullBytes,
                            boolean dispatchBehindWriter) {
    /** Above this the turn's results wait too long for the last appends of a big turn. */
    static final int MAX_APPENDS_PER_TURN_LIMIT = 65_536;
    static final int MAX_SELECTOR_THREADS = 64;
    static final long DEFAULT_MAX_COPIED_PULL_BYTES = 64L * 1024 * 1024;

    public HotPathConfig {
        require(serverSelectorThreads >= 1 && serverSelectorThreads <= MAX_SELECTOR_THREADS,
            "serverSelectorThreads (1.." + MAX_SELECTOR_THREADS + ")", serverSelectorThreads);
        require(maxAppendsPerWriterTurn >= 1 && maxAppendsPerWriterTurn <= MAX_APPENDS_PER_TURN_LIMIT,
            "maxAppendsPerWriterTurn (1.." + MAX_APPENDS_PER_TURN_LIMIT + ")", maxAppendsPerWriterTurn);
        require(maxCopiedPullBytes >= 0, "maxCopiedPullBytes (0 or more)", maxCopiedPullBytes);
    }

    public static HotPathConfig from(JsonObject json) {
        return new HotPathConfig(json.getInteger("serverSelectorThreads", 1),
            json.getBoolean("batchAppendsPerWriterTurn", false), json.getInteger("maxAppendsPerWriterTurn", 256),
            json.getBoolean("readHeldPullsOnDispatcher", true), json.getBoolean("holdCaughtUpPullsAtOnce", true),
            json.getBoolean("copyPulledRecords", true),
            json.getLong("maxCopiedPullBytes", DEFAULT_MAX_COPIED_PULL_BYTES),
            json.getBoolean("dispatchBehindWriter", true));
    }

    /** What the pull processor takes: the copies' bound, 0 when pulls are not copied. */
    public long maxCopiedPullBytesInUse() {
        return copyPulledRecords ? maxCopiedPullBytes : 0;
    }

    /** What {@code StoreAccess} takes: sends per writer turn, 0 for one task per append. */
    public int appendsPerWriterTurn() {
        return batchAppendsPerWriterTurn ? maxAppendsPerWriterTurn : 0;
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
