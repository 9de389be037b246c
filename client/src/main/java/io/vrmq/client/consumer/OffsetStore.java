package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.MessageQueue;

/**
 * A consumer group's consume offsets: cached in memory as messages are consumed, persisted periodically and before
 * a queue is given up. CLUSTERING keeps them on the broker, BROADCASTING in a local file. Confined to the consumer's
 * context.
 */
public interface OffsetStore {
    Future<Void> load();

    /** The persisted offset, or -1 when there is none. */
    Future<Long> readFromStore(MessageQueue queue);

    /** The cached offset, or -1. */
    long readFromMemory(MessageQueue queue);

    /** @param isIncreaseOnly keep the cached offset when it is already larger (late results of a dropped queue) */
    void update(MessageQueue queue, long offset, boolean isIncreaseOnly);

    /** Persists every cached offset; {@code isAcked}: wait for each to be confirmed (shutdown). */
    Future<Void> persistAll(boolean isAcked);

    /** Persists one queue's offset and completes when it is confirmed. */
    Future<Void> persist(MessageQueue queue);

    void remove(MessageQueue queue);
}
