package io.vrmq.store;

import java.nio.file.Path;

/**
 * The child JVM of {@link ProcessCrashTest}: appends forever and prints, per message, a line the parent parses.
 * SYNC_FLUSH: "ACK queueId queueOffset commitLogOffset" once the durability future says FLUSH_OK.
 * ASYNC_FLUSH: "FLUSHED count" after an explicit flush of the first {@code count} messages, then "SENT ..." lines
 * for appends that are not yet forced. A third argument {@value #SLOW_FORCES} pushes the interval forces and the
 * checkpoint out of the run (60 s), so the explicit flush is the last force: what a machine crash keeps at least.
 */
public final class CrashWriterMain {
    static final String TOPIC = "Crash";
    static final int QUEUES = 4;
    static final int FLUSH_POINT = 200;
    static final String SLOW_FORCES = "slowForces";

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
        for (int sequence = 0; ; sequence++) {
            AppendResult result = store.append(TestStores.message(TOPIC, sequence % QUEUES, sequence, "t"));
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
}
