package io.vrmq.broker.longpoll;

import io.vrmq.store.TagFilter;

/**
 * A pull held until its queue gets a message past {@code queueOffset} or until {@code deadlineMs}.
 *
 * @param wake        re-runs the pull (without suspending again) and sends its answer; called on the hold service's
 *                    event loop, so it reads on a reader thread
 * @param wakeOffLoop the same, called on the store's dispatcher thread, where it may read the store at once (then it
 *                    hands the answer to the pull's event loop); null: the dispatcher hands {@code wake} to the hold
 *                    service's event loop
 */
public record HeldPull(String topic, int queueId, long queueOffset, TagFilter filter, long deadlineMs,
                       Runnable wake, Runnable wakeOffLoop) {
    /** A pull that is only ever woken on the hold service's event loop. */
    public HeldPull(String topic, int queueId, long queueOffset, TagFilter filter, long deadlineMs, Runnable wake) {
        this(topic, queueId, queueOffset, filter, deadlineMs, wake, null);
    }
}
