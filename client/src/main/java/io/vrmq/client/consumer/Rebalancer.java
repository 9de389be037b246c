package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ClientException;
import io.vrmq.client.ConsumeFromWhere;
import io.vrmq.client.MessageModel;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ConsumerOptions;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.route.TopicRoute;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Decides which queues this consumer serves (RocketMQ's RebalanceImpl) and keeps the process-queue table in line:
 * CLUSTERING asks a broker for the group's members and runs the allocation strategy; BROADCASTING takes every queue.
 * Queues given up are dropped (their pull loops stop), their offsets committed and, for orderly consumers,
 * unlocked; only then is a queue released, and only after all releases are new queues added, each starting at its
 * committed offset or at consumeFromWhere. Runs are serialised: a request during a run causes one more run after it.
 * Confined to the consumer's context.
 */
public final class Rebalancer {
    private static final Logger log = LoggerFactory.getLogger(Rebalancer.class);

    private final ClientRuntime runtime;
    private final ConsumerOptions options;
    private final ConsumerBrokerApi broker;
    private final OffsetStore offsets;
    private final PullService pulls;
    private final QueueLocks locks;
    private final Map<MessageQueue, ProcessQueue> processQueues = new HashMap<>();
    private Future<Void> running;
    private boolean isRunRequested;
    private boolean isShutdown;

    public Rebalancer(ClientRuntime runtime, ConsumerOptions options, ConsumerBrokerApi broker,
                      OffsetStore offsets, PullService pulls, QueueLocks locks) {
        this.runtime = runtime;
        this.options = options;
        this.broker = broker;
        this.offsets = offsets;
        this.pulls = pulls;
        this.locks = locks;
    }

    /** Rebalances every topic; completes after this run (or the one it joins) ends. Never fails. */
    public Future<Void> rebalance(Collection<String> topics) {
        if (isShutdown) {
            return Future.succeededFuture();
        }
        if (running != null) {
            isRunRequested = true;
            return running;
        }
        List<String> snapshot = List.copyOf(topics);
        Future<Void> run = Future.succeededFuture();
        for (String topic : snapshot) {
            run = run.compose(previous -> rebalanceTopic(topic).recover(error -> {
                log.debug("rebalance of {} skipped: {}", topic, error.getMessage());
                return Future.succeededFuture();
            }));
        }
        running = run;
        return run.onComplete(done -> {
            running = null;
            if (isRunRequested && !isShutdown) {
                isRunRequested = false;
                rebalance(snapshot);
            }
        });
    }

    /** Serves exactly {@code queues} (the pull consumer's assign): releases the others, adds the new ones. */
    public Future<Void> assign(Set<MessageQueue> queues) {
        return update(queue -> true, queues);
    }

    /**
     * Restarts one queue's pull loop at {@code offset} (the pull consumer's seek, a push consumer's offset reset):
     * the old process queue is dropped with whatever it held (late listener results for it are ignored), its lock
     * state carried over, the cached offset set to {@code offset} (reported to the broker with the next pull or
     * commit).
     */
    public ProcessQueue restart(MessageQueue queue, long offset) {
        ProcessQueue old = processQueues.get(queue);
        if (old == null) {
            throw new IllegalArgumentException(queue + " is not assigned to this consumer");
        }
        old.drop();
        ProcessQueue fresh = new ProcessQueue(queue);
        if (old.isLocked()) {
            fresh.setLocked(true, old.lastLockTimestampMs());
        }
        processQueues.put(queue, fresh);
        offsets.update(queue, offset, false);
        pulls.start(fresh, offset);
        return fresh;
    }

    public Map<MessageQueue, ProcessQueue> processQueues() {
        return processQueues;
    }

    /**
     * The consumer is shutting down: no more runs; once the current one ended, every queue is dropped and its
     * offset committed.
     */
    public Future<Void> shutdown() {
        isShutdown = true;
        Future<Void> current = running == null ? Future.succeededFuture() : running;
        return current.compose(ended -> releaseAll());
    }

    private Future<Void> releaseAll() {
        List<Future<Void>> releases = new ArrayList<>();
        for (MessageQueue queue : List.copyOf(processQueues.keySet())) {
            releases.add(release(queue));
        }
        return Future.join(releases).mapEmpty();
    }

    private Future<Void> rebalanceTopic(String topic) {
        return runtime.routes().route(topic).compose(route -> allocate(route)
            .compose(mine -> update(queue -> queue.topic().equals(topic), mine)));
    }

    private Future<Set<MessageQueue>> allocate(TopicRoute route) {
        List<MessageQueue> all = new ArrayList<>(route.readQueues());
        all.sort(null);
        if (options.getMessageModel() == MessageModel.BROADCASTING) {
            return Future.succeededFuture(new HashSet<>(all));
        }
        if (route.masterAddrs().isEmpty()) {
            return Future.failedFuture(new ClientException("no master serves " + route.topic()));
        }
        String address = route.masterAddrs().values().iterator().next();
        return broker.consumerIds(address).map(ids -> {
            List<String> sorted = new ArrayList<>(ids);
            sorted.sort(null);
            List<MessageQueue> mine = options.getAllocateStrategy().allocate(options.getConsumerGroup(),
                runtime.clientId(), all, sorted);
            return new HashSet<>(mine);
        });
    }

    /** Releases the queues in {@code scope} that are not {@code mine}, then adds the new ones of {@code mine}. */
    private Future<Void> update(Predicate<MessageQueue> scope, Set<MessageQueue> mine) {
        List<Future<Void>> releases = new ArrayList<>();
        for (MessageQueue queue : List.copyOf(processQueues.keySet())) {
            if (scope.test(queue) && !mine.contains(queue)) {
                releases.add(release(queue));
            }
        }
        return Future.join(releases).transform(released -> {
            List<Future<Void>> additions = new ArrayList<>();
            for (MessageQueue queue : mine) {
                if (!processQueues.containsKey(queue)) {
                    additions.add(add(queue).recover(error -> {
                        log.warn("cannot start consuming {}: {}", queue, error.getMessage());
                        return Future.succeededFuture();
                    }));
                }
            }
            return Future.join(additions).mapEmpty();
        });
    }

    private Future<Void> release(MessageQueue queue) {
        ProcessQueue processQueue = processQueues.get(queue);
        processQueue.drop();
        return offsets.persist(queue)
            .compose(committed -> locks.unlock(queue))
            .onComplete(done -> {
                offsets.remove(queue);
                processQueues.remove(queue, processQueue);
                log.info("released {} of group {}", queue, options.getConsumerGroup());
            })
            .recover(error -> {
                log.warn("released {} without confirming its offset: {}", queue, error.getMessage());
                return Future.succeededFuture();
            });
    }

    private Future<Void> add(MessageQueue queue) {
        return locks.lock(queue).compose(isLocked -> {
            if (!isLocked || isShutdown) {
                return Future.succeededFuture();
            }
            return startOffset(queue).map(offset -> {
                if (isShutdown) {
                    return null;
                }
                ProcessQueue processQueue = new ProcessQueue(queue);
                processQueue.setLocked(locks.isEnabled(), System.currentTimeMillis());
                processQueues.put(queue, processQueue);
                offsets.update(queue, offset, false);
                log.info("consuming {} of group {} from offset {}", queue, options.getConsumerGroup(), offset);
                pulls.start(processQueue, offset);
                return null;
            });
        });
    }

    /** RocketMQ's computePullFromWhere: the committed offset, else where consumeFromWhere says. */
    private Future<Long> startOffset(MessageQueue queue) {
        return offsets.readFromStore(queue).compose(committed -> {
            if (committed >= 0) {
                return Future.succeededFuture(committed);
            }
            boolean isRetry = ConsumerTopics.isRetryTopic(queue.topic());
            ConsumeFromWhere where = options.getConsumeFromWhere();
            if (where == ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET || (isRetry
                && where == ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET)) {
                return Future.succeededFuture(0L);
            }
            if (where == ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET || isRetry) {
                return broker.maxOffset(queue);
            }
            return broker.searchOffset(queue, options.getConsumeTimestampMs());
        });
    }
}
