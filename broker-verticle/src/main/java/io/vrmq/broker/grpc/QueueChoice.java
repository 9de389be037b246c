package io.vrmq.broker.grpc;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which queue a gRPC send goes to, chosen here as Apache's proxy chooses it (the client's queue_id is ignored):
 * messages of one message group always to the same queue, by a consistent hash of the group's
 * {@code String.hashCode()} over the writable queues (so that adding queues moves as few groups as possible);
 * other messages round-robin. Thread-safe.
 */
final class QueueChoice {
    private static final long LCG_MULTIPLIER = 2862933555777941757L;
    private static final double TWO_TO_31 = 0x1.0p31;

    private final AtomicInteger next = new AtomicInteger();

    int choose(String messageGroup, int writeQueueNums) {
        if (writeQueueNums <= 1) {
            return 0;
        }
        if (messageGroup != null) {
            return consistentHash(messageGroup.hashCode(), writeQueueNums);
        }
        return Math.floorMod(next.getAndIncrement(), writeQueueNums);
    }

    /**
     * Lamping and Veach's jump consistent hash ("A Fast, Minimal Memory, Consistent Hash Algorithm", 2014): a bucket
     * in [0, buckets) that changes for only 1/n of the keys when the n-th bucket is added.
     */
    static int consistentHash(long key, int buckets) {
        long state = key;
        int candidate = 0;
        while (true) {
            state = LCG_MULTIPLIER * state + 1;
            double random = ((double) ((int) (state >>> 33) + 1)) / TWO_TO_31;
            int next = (int) ((candidate + 1) / random);
            if (next >= 0 && next < buckets) {
                candidate = next;
            } else {
                return candidate;
            }
        }
    }
}
