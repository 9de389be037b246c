package io.vrmq.broker.longpoll;

import io.vrmq.store.TagFilter;

/**
 * A pull held until its queue gets a message past {@code queueOffset} or until {@code deadlineMs}.
 *
 * @param wake re-runs the pull (without suspending again) and sends its answer
 */
public record HeldPull(String topic, int queueId, long queueOffset, TagFilter filter, long deadlineMs,
                       Runnable wake) {
}
