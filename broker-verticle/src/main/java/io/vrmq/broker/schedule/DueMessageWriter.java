package io.vrmq.broker.schedule;

import io.vertx.core.Future;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.store.AppendResult;
import io.vrmq.store.AppendStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Stores due messages in their real topics one after another, in list order (each append waits for the previous
 * one, so a holding queue's order is kept and a failure leaves a clean prefix). A message the store refuses for good
 * (illegal, too large) is logged and counted as handled, as RocketMQ drops it; a refusal that may pass (store not
 * available, disk full) stops the run so the caller retries later from that message. Called on one context; the
 * appends run on the store's writer thread.
 */
public final class DueMessageWriter {
    private static final Logger log = LoggerFactory.getLogger(DueMessageWriter.class);

    private final StoreAccess store;

    public DueMessageWriter(StoreAccess store) {
        this.store = store;
    }

    /** How many leading messages of {@code due} were handled (stored or dropped); the rest are still due. */
    public Future<Integer> appendInOrder(List<DueMessage> due, BooleanSupplier isStopped) {
        return appendFrom(due, 0, isStopped);
    }

    private Future<Integer> appendFrom(List<DueMessage> due, int index, BooleanSupplier isStopped) {
        if (index == due.size() || isStopped.getAsBoolean()) {
            return Future.succeededFuture(index);
        }
        DueMessage next = due.get(index);
        if (next.message() == null) {
            return appendFrom(due, index + 1, isStopped);
        }
        return store.append(next.message()).compose(result -> {
            if (result.isOk() || isDroppedForGood(next, result)) {
                return appendFrom(due, index + 1, isStopped);
            }
            log.warn("due message from commit log offset {} to {}-{} not stored yet: {} {}", next.commitLogOffset(),
                next.message().topic(), next.message().queueId(), result.status(), result.remark());
            return Future.succeededFuture(index);
        });
    }

    private static boolean isDroppedForGood(DueMessage due, AppendResult result) {
        boolean isPermanent = result.status() == AppendStatus.MESSAGE_ILLEGAL
            || result.status() == AppendStatus.PROPERTIES_SIZE_EXCEEDED;
        if (isPermanent) {
            log.error("due message from commit log offset {} to {}-{} refused by the store and dropped: {} {}",
                due.commitLogOffset(), due.message().topic(), due.message().queueId(), result.status(),
                result.remark());
        }
        return isPermanent;
    }
}
