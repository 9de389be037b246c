package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CLUSTERING offsets, kept by the broker (RocketMQ's RemoteBrokerOffsetStore): read with QUERY_CONSUMER_OFFSET,
 * written with UPDATE_CONSUMER_OFFSET, oneway every persist interval and answered when a queue is released or the
 * consumer shuts down. Confined to the consumer's context.
 */
public final class BrokerOffsetStore implements OffsetStore {
    private static final Logger log = LoggerFactory.getLogger(BrokerOffsetStore.class);

    private final ConsumerBrokerApi broker;
    private final Map<MessageQueue, Long> offsets = new HashMap<>();

    public BrokerOffsetStore(ConsumerBrokerApi broker) {
        this.broker = broker;
    }

    @Override
    public Future<Void> load() {
        return Future.succeededFuture();
    }

    @Override
    public Future<Long> readFromStore(MessageQueue queue) {
        return broker.queryOffset(queue).onSuccess(offset -> {
            if (offset >= 0) {
                offsets.put(queue, offset);
            }
        });
    }

    @Override
    public long readFromMemory(MessageQueue queue) {
        return offsets.getOrDefault(queue, -1L);
    }

    @Override
    public void update(MessageQueue queue, long offset, boolean isIncreaseOnly) {
        if (offset < 0) {
            return;
        }
        offsets.merge(queue, offset, (old, next) -> isIncreaseOnly ? Math.max(old, next) : next);
    }

    @Override
    public Future<Void> persistAll(boolean isAcked) {
        List<Future<Void>> commits = new ArrayList<>();
        offsets.forEach((queue, offset) -> commits.add((isAcked ? broker.commitOffset(queue, offset)
            : broker.commitOffsetOneway(queue, offset))
            .onFailure(error -> log.warn("offset {} of {} not committed: {}", offset, queue, error.toString()))));
        return Future.join(commits).mapEmpty();
    }

    @Override
    public Future<Void> persist(MessageQueue queue) {
        Long offset = offsets.get(queue);
        return offset == null ? Future.succeededFuture() : broker.commitOffset(queue, offset);
    }

    @Override
    public void remove(MessageQueue queue) {
        offsets.remove(queue);
    }
}
