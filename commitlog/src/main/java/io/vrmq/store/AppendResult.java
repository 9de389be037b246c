package io.vrmq.store;

import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.OffsetMessageId;
import java.util.concurrent.CompletableFuture;

/**
 * Where an append landed and when it is durable. For a batch, offsets are the first message's and
 * {@code messageCount} says how many follow consecutively.
 *
 * @param commitLogOffset  physical offset of the (first) record; -1 unless PUT_OK
 * @param queueOffset      queue offset of the (first) message; -1 unless PUT_OK
 * @param sizeBytes        bytes appended (all records of a batch)
 * @param durability       SYNC_FLUSH: completes after the force that covers the append, or with FLUSH_DISK_TIMEOUT;
 *                         ASYNC_FLUSH: already complete with FLUSH_OK. Completed on the flusher thread (or a JDK
 *                         timer thread on timeout): keep callbacks short or hop to your own thread
 * @param remark           human-readable reason when not PUT_OK, with the numbers
 */
public record AppendResult(
        AppendStatus status,
        long commitLogOffset,
        long queueOffset,
        int messageCount,
        int sizeBytes,
        long storeTimestamp,
        HostAddress storeHost,
        CompletableFuture<FlushStatus> durability,
        String remark) {

    private static final CompletableFuture<FlushStatus> NOT_STORED =
            CompletableFuture.failedFuture(new IllegalStateException("nothing was stored"));

    static AppendResult rejected(AppendStatus status, String remark) {
        return new AppendResult(status, -1, -1, 0, 0, 0, null, NOT_STORED, remark);
    }

    /** The same placement with its durability future (the writer sets it once per turn). */
    AppendResult withDurability(CompletableFuture<FlushStatus> future) {
        return new AppendResult(status, commitLogOffset, queueOffset, messageCount, sizeBytes, storeTimestamp,
                storeHost, future, remark);
    }

    public boolean isOk() {
        return status == AppendStatus.PUT_OK;
    }

    /** RocketMQ's offset msgId of the (first) record: store host + commitLogOffset in hex (PROTOCOL.md §4). */
    public String offsetMsgId() {
        if (!isOk()) {
            throw new IllegalStateException("no message id for a " + status + " append");
        }
        return OffsetMessageId.of(storeHost.address(), storeHost.port(), commitLogOffset);
    }
}
