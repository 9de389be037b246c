package io.vrmq.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child JVM of {@link ProcessCrashTest}: appends forever and prints, per message, a line the parent parses.
 * SYNC_FLUSH: "ACK queueId queueOffset commitLogOffset" once the durability future says FLUSH_OK.
 * ASYNC_FLUSH: "FLUSHED count" after an explicit flush of the first {@code count} messages, then "SENT ..." lines
 * for appends that are not yet forced. A third argument {@value #SLOW_FORCES} pushes the interval forces and the
 * checkpoint out of the run (60 s), so the explicit flush is the last force: what a machine crash keeps at least.
 * A third argument {@value #TURNS} appends {@value #TURN_MESSAGES} messages per writer turn
 * ({@link MessageStore#appendEach}), as the broker's batching writer does, and reports each as above.
 */
public final class CrashWriterMain {
    static final String TOPIC = "Crash";
    static final int QUEUES = 4;
    static final int FLUSH_POINT = 200;
    static final String SLOW_FORCES = "slowForces";
    static final String TURNS = "turns";
    static final int TURN_MESSAGES = 8;

    private CrashWriterMain() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        FlushDiskType type = FlushDiskType.valueOf(args[1]);
        StoreConfig config = TestStores.config(dir, type);
        if (args.length > 2 && args[2].equals(SLOW_FORCES)) {
            config = config.with("flushIntervalCommitLogMs", 60_000).with("flushCommitLogThoroughIntervalMs", 60_000)
                    .with("flushIntervalConsumeQueueMs", 60_000);
        }
        MessageStore store = MessageStore.open(config);
        boolean inTurns = args.length > 2 && args[2].equals(TURNS);
        for (int sequence = 0; ; sequence += inTurns ? TURN_MESSAGES : 1) {
            List<MessageToStore> turn = new ArrayList<>();
            for (int i = 0; i < (inTurns ? TURN_MESSAGES : 1); i++) {
                turn.add(TestStores.message(TOPIC, (sequence + i) % QUEUES, sequence + i, "t"));
            }
            List<AppendResult> results = inTurns ? store.appendEach(turn) : List.of(store.append(turn.get(0)));
            for (int i = 0; i < results.size(); i++) {
                report(store, type, sequence + i, results.get(i));
            }
        }
    }

    private static void report(MessageStore store, FlushDiskType type, int sequence, AppendResult result)
            throws Exception {
        if (result.status() != AppendStatus.PUT_OK) {
            throw new IllegalStateException("append failed: " + result);
        }
        String where = (sequence % QUEUES) + " " + result.queueOffset() + " " + result.commitLogOffset();
        if (type == FlushDiskType.SYNC_FLUSH) {
            if (result.durability().get() == FlushStatus.FLUSH_OK) {
                System.out.println("ACK " + where);
            }
        } else {
            System.out.println("SENT " + where);
            if (sequence + 1 == FLUSH_POINT) {
                store.flush();
                System.out.println("FLUSHED " + FLUSH_POINT);
            }
        }
        System.out.flush();
    }
}
