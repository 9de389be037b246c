package io.vrmq.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.client.consumer.BrokerOffsetStore;
import io.vrmq.client.consumer.ConsumerBrokerApi;
import io.vrmq.client.consumer.PollBuffer;
import io.vrmq.client.consumer.PullService;
import io.vrmq.client.consumer.QueueLocks;
import io.vrmq.client.consumer.Rebalancer;
import io.vrmq.client.consumer.SubscriptionCheck;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.internal.Heartbeats;
import io.vrmq.remoting.body.ConsumerData;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.body.SubscriptionData;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pull consumer (RocketMQ's lite pull consumer): either {@link #assign} queues yourself or {@link #subscribe} and
 * let the group's rebalance assign them; then {@link #poll} messages, {@link #commit} what you processed, and
 * {@link #seek} or {@link #seekToTimestamp} to move. Messages are prefetched by one long-polling loop per queue
 * (paused at pullThresholdForQueue), offsets are kept on the broker (CLUSTERING). Polled messages are not committed
 * until {@code commit}: a consumer that stops without committing is re-delivered from the last commit.
 *
 * <pre>{@code
 * VrmqPullConsumer consumer = new VrmqPullConsumer(vertx, new ConsumerOptions()
 *     .setNamesrvAddr("127.0.0.1:9876").setConsumerGroup("CG"));
 * consumer.start()
 *     .compose(started -> consumer.fetchQueues("T"))
 *     .compose(queues -> consumer.assign(queues))
 *     .compose(assigned -> consumer.poll(1_000))
 *     .compose(messages -> process(messages).compose(done -> consumer.commit()));
 * }</pre>
 *
 * Thread-safe: all work runs on the Vert.x context current when the consumer was created. One poll at a time.
 */
public final class VrmqPullConsumer {
    private static final String CONSUME_ACTIVELY = "CONSUME_ACTIVELY";

    private final ConsumerOptions options;
    private final ClientRuntime runtime;
    private final ConsumerBrokerApi broker;
    private final BrokerOffsetStore offsets;
    private final Heartbeats heartbeats;
    private final PollBuffer buffer;
    private final Rebalancer rebalancer;
    private final Map<String, SubscriptionData> subscriptions = new LinkedHashMap<>();
    private boolean isSubscribeMode;

    public VrmqPullConsumer(Vertx vertx, ConsumerOptions options) {
        if (options.getMessageModel() != MessageModel.CLUSTERING) {
            throw new IllegalArgumentException("the pull consumer keeps offsets on the broker: CLUSTERING only");
        }
        this.options = options;
        this.runtime = new ClientRuntime(vertx, options);
        this.broker = new ConsumerBrokerApi(runtime, options.getConsumerGroup(), options.getMaxBodyBytes());
        this.offsets = new BrokerOffsetStore(broker);
        this.heartbeats = new Heartbeats(runtime);
        this.buffer = new PollBuffer(runtime, offsets, options.getPullBatchSize());
        PullService pulls = new PullService(runtime, options, broker, offsets, this::subscriptionOf, buffer, false,
            true);
        this.rebalancer = new Rebalancer(runtime, options, broker, offsets, pulls,
            new QueueLocks(runtime, broker, false));
    }

    /** Subscribe mode: the group's members share the topic's queues. Call before {@link #start()}. */
    public VrmqPullConsumer subscribe(String topic, String expression) {
        isSubscribeMode = true;
        subscriptions.put(topic, SubscriptionData.ofTags(topic, expression, System.currentTimeMillis()));
        return this;
    }

    /** Subscribe mode with an SQL92 property filter evaluated by the broker (see {@link VrmqPushConsumer#subscribeSql}). */
    public VrmqPullConsumer subscribeSql(String topic, String sqlExpression) {
        isSubscribeMode = true;
        subscriptions.put(topic, VrmqPushConsumer.sqlSubscription(topic, sqlExpression));
        return this;
    }

    public Future<Void> start() {
        return runtime.onContext(() -> {
            List<Future<?>> lookups = new ArrayList<>();
            subscriptions.keySet().forEach(topic -> lookups.add(runtime.routes().refresh(topic)));
            return Future.join(lookups).otherwiseEmpty()
                .compose(routed -> SubscriptionCheck.check(runtime, options.getConsumerGroup(),
                    subscriptions.values()))
                .compose(checked -> heartbeat())
                .compose(beaten -> isSubscribeMode ? rebalancer.rebalance(subscriptions.keySet())
                    : Future.<Void>succeededFuture())
                .onSuccess(started -> startTimers());
        });
    }

    /** Every readable queue of {@code topic}. */
    public Future<List<MessageQueue>> fetchQueues(String topic) {
        return runtime.onContext(() -> runtime.routes().route(topic).map(route -> {
            List<MessageQueue> queues = new ArrayList<>(route.readQueues());
            queues.sort(null);
            return queues;
        }));
    }

    /** Assign mode: consume exactly these queues (all tags), each from its committed offset or consumeFromWhere. */
    public Future<Void> assign(Collection<MessageQueue> queues) {
        Set<MessageQueue> assigned = new HashSet<>(queues);
        return runtime.onContext(() -> {
            if (isSubscribeMode) {
                return Future.failedFuture(new IllegalStateException("subscribe and assign do not mix"));
            }
            assigned.forEach(queue -> subscriptions.computeIfAbsent(queue.topic(), topic ->
                SubscriptionData.ofTags(topic, SubscriptionData.SUB_ALL, System.currentTimeMillis())));
            return rebalancer.assign(assigned);
        });
    }

    public Future<Set<MessageQueue>> assignment() {
        return runtime.onContext(() -> Future.succeededFuture(Set.copyOf(rebalancer.processQueues().keySet())));
    }

    /** Up to pullBatchSize messages, waiting up to {@code timeoutMs} for the first; empty when none came. */
    public Future<List<ReceivedMessage>> poll(long timeoutMs) {
        return runtime.onContext(() -> buffer.poll(timeoutMs));
    }

    /** Commits every polled message's offset to the broker; completes when the broker confirmed them. */
    public Future<Void> commit() {
        return runtime.onContext(() -> {
            buffer.commit();
            return offsets.persistAll(true);
        });
    }

    /**
     * The next poll of {@code queue} starts at {@code offset}; what was buffered or polled from it is forgotten. The
     * broker learns the new position with the next pull (its commit-offset field) or {@link #commit()}.
     */
    public Future<Void> seek(MessageQueue queue, long offset) {
        return runtime.onContext(() -> {
            buffer.discard(queue);
            rebalancer.restart(queue, offset);
            return Future.succeededFuture();
        });
    }

    /** Seeks to the first message stored at or after {@code timestampMs}. */
    public Future<Void> seekToTimestamp(MessageQueue queue, long timestampMs) {
        return runtime.onContext(() -> broker.searchOffset(queue, timestampMs)
            .compose(offset -> seek(queue, offset)));
    }

    /** The offset committed on the broker, or -1 when the group has none for the queue. */
    public Future<Long> committed(MessageQueue queue) {
        return runtime.onContext(() -> broker.queryOffset(queue));
    }

    /**
     * Stops the pull loops, commits the offsets as of the last {@link #commit()} or seek (polled but uncommitted
     * messages come again to the next consumer), unregisters and closes the connections.
     */
    public Future<Void> close() {
        return runtime.onContext(() -> {
            Set<String> brokers = runtime.routes().brokerAddrs(runtime.routes().topics(), false);
            rebalancer.processQueues().values().forEach(queue -> queue.drop());
            return rebalancer.shutdown()
                .compose(stopped -> heartbeats.unregister(brokers, null, options.getConsumerGroup()))
                .eventually(runtime::close);
        });
    }

    private SubscriptionData subscriptionOf(String topic) {
        return subscriptions.get(topic);
    }

    private void startTimers() {
        runtime.periodic(options.getPollNameServerIntervalMs(), options.getPollNameServerIntervalMs(),
            runtime.routes()::refreshAll);
        runtime.periodic(options.getHeartbeatBrokerIntervalMs(), options.getHeartbeatBrokerIntervalMs(),
            this::heartbeat);
        if (isSubscribeMode) {
            runtime.periodic(options.getRebalanceIntervalMs(), options.getRebalanceIntervalMs(),
                () -> rebalancer.rebalance(subscriptions.keySet()));
            runtime.onConsumerIdsChanged(group -> {
                if (options.getConsumerGroup().equals(group)) {
                    rebalancer.rebalance(subscriptions.keySet());
                }
            });
        }
    }

    private Future<Void> heartbeat() {
        ConsumerData consumer = new ConsumerData(options.getConsumerGroup(), CONSUME_ACTIVELY,
            options.getMessageModel().name(), options.getConsumeFromWhere().name(),
            Set.copyOf(subscriptions.values()), false);
        HeartbeatData heartbeat = new HeartbeatData(runtime.clientId(), Set.of(), Set.of(consumer), 0, false);
        return heartbeats.send(heartbeat, runtime.routes().brokerAddrs(runtime.routes().topics(), false));
    }
}
