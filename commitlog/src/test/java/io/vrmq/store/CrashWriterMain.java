package io.vrmq.store;

import java.nio.file.Path;

/**
 * The child JVM of {@link ProcessCrashTest}: appends forever and prints, per message, a line the parent parses.
 * SYNC_FLUSH: "ACK queueId queueOffset commitLogOffset" once the durability future says FLUSH_OK.
 * ASYNC_FLUSH: "FLUSHED count" after an explicit flush of the first {@code count} messages, then "SENT ..." lines
 * for appends that are not yet forced.
 */
public final class CrashWriterMain {
    static final String TOPIC = "Crash";
    static final int QUEUES = 4;
    static final int FLUSH_POINT = 200;

    private CrashWriterMain() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        FlushDiskType type = FlushDiskType.valueOf(args[1]);
        MessageStore store = MessageStore.open(TestStores.config(dir, type));
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
