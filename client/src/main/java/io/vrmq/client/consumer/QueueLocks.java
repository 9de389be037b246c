package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.internal.ClientRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The broker-side queue locks of an orderly CLUSTERING consumer: LOCK_BATCH_MQ (41) before a queue is consumed and
 * every lockRenewInterval for all held queues, UNLOCK_BATCH_MQ (42) when a queue is released. Disabled (every call
 * grants at once) for concurrent or BROADCASTING consumers. Confined to the consumer's context.
 */
public final class QueueLocks {
    private static final Logger log = LoggerFactory.getLogger(QueueLocks.class);

    private final ClientRuntime runtime;
    private final ConsumerBrokerApi broker;
    private final boolean isEnabled;

    public QueueLocks(ClientRuntime runtime, ConsumerBrokerApi broker, boolean isEnabled) {
        this.runtime = runtime;
        this.broker = broker;
        this.isEnabled = isEnabled;
    }

    public boolean isEnabled() {
        return isEnabled;
    }

    /** true when this consumer now holds the queue (always, when disabled). */
    public Future<Boolean> lock(MessageQueue queue) {
        if (!isEnabled) {
            return Future.succeededFuture(true);
        }
        return broker.masterAddr(queue)
            .compose(address -> broker.lock(address, runtime.clientId(), Set.of(queue)))
            .map(locked -> locked.contains(queue));
    }

    public Future<Void> unlock(MessageQueue queue) {
        if (!isEnabled) {
            return Future.succeededFuture();
        }
        return broker.masterAddr(queue)
            .compose(address -> broker.unlock(address, runtime.clientId(), Set.of(queue)))
            .recover(error -> {
                log.debug("unlock of {} failed (the broker's lock expires on its own): {}", queue, error.toString());
                return Future.succeededFuture();
            });
    }

    /** Renews the locks of every held queue, per broker; {@code granted} runs for each queue still held. */
    public Future<Void> renew(Map<MessageQueue, ProcessQueue> queues, Consumer<ProcessQueue> granted) {
        if (!isEnabled || queues.isEmpty()) {
            return Future.succeededFuture();
        }
        Map<String, Set<MessageQueue>> byBroker = new HashMap<>();
        for (MessageQueue queue : queues.keySet()) {
            byBroker.computeIfAbsent(queue.brokerName(), name -> new HashSet<>()).add(queue);
        }
        List<Future<Void>> renewals = new ArrayList<>();
        byBroker.forEach((brokerName, mine) -> renewals.add(broker.masterAddr(mine.iterator().next())
            .compose(address -> broker.lock(address, runtime.clientId(), mine))
            .map(locked -> {
                long nowMs = System.currentTimeMillis();
                for (MessageQueue queue : mine) {
                    ProcessQueue processQueue = queues.get(queue);
                    if (processQueue != null) {
                        processQueue.setLocked(locked.contains(queue), nowMs);
                        if (locked.contains(queue)) {
                            granted.accept(processQueue);
                        }
                    }
                }
                return (Void) null;
            })
            .onFailure(error -> log.warn("lock renewal at {} failed: {}", brokerName, error.toString()))));
        return Future.join(renewals).<Void>mapEmpty().otherwiseEmpty();
    }
}
