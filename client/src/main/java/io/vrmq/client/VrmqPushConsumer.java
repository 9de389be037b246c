package io.vrmq.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.client.consumer.BrokerOffsetStore;
import io.vrmq.client.consumer.ConcurrentConsumeService;
import io.vrmq.client.consumer.ConsumeService;
import io.vrmq.client.consumer.ConsumerAdminProcessor;
import io.vrmq.client.consumer.ConsumerRunningInfoBody;
import io.vrmq.client.consumer.DirectConsumer;
import io.vrmq.client.consumer.ConsumerBrokerApi;
import io.vrmq.client.consumer.ConsumerTopics;
import io.vrmq.client.consumer.SubscriptionCheck;
import io.vrmq.client.consumer.LocalFileOffsetStore;
import io.vrmq.client.consumer.OffsetStore;
import io.vrmq.client.consumer.OrderlyConsumeService;
import io.vrmq.client.consumer.ProcessQueue;
import io.vrmq.client.consumer.PullService;
import io.vrmq.client.consumer.QueueLocks;
import io.vrmq.client.consumer.Rebalancer;
import io.vrmq.client.consumer.SendBackService;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.internal.Heartbeats;
import io.vrmq.client.message.MessageIdGenerator;
import io.vrmq.client.producer.BrokerFaultTable;
import io.vrmq.client.producer.MessageSender;
import io.vrmq.client.producer.SendPreparation;
import io.vrmq.client.trace.ConsumerTrace;
import io.vrmq.client.trace.TraceDispatcher;
import io.vrmq.remoting.body.ConsumerData;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.body.SubscriptionData;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A push consumer over long polling: subscribe, register one listener, start. It heartbeats its subscriptions to
 * every broker, rebalances every rebalanceInterval and whenever a broker announces a membership change
 * (NOTIFY_CONSUMER_IDS_CHANGED), runs one pull loop per assigned queue and commits offsets every
 * persistConsumerOffsetInterval and on close. It answers the brokers' admin requests as the official consumer does:
 * offset resets (220), running info (307) and direct consumption of one message (309).
 *
 * <pre>{@code
 * VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, new ConsumerOptions()
 *     .setNamesrvAddr("127.0.0.1:9876").setConsumerGroup("CG"));
 * consumer.subscribe("T", "TagA || TagB");
 * consumer.registerListener((messages, queue) ->
 *     handle(messages).map(ConsumeConcurrentlyStatus.CONSUME_SUCCESS));
 * consumer.start();
 * }</pre>
 *
 * Configure (subscribe, registerListener) before {@link #start()} from one thread; afterwards all work runs on the
 * Vert.x context current when the consumer was created, where the listener is called too.
 */
public final class VrmqPushConsumer {
    private static final String INNER_PRODUCER_GROUP = "CLIENT_INNER_PRODUCER";
    private static final String CONSUME_PASSIVELY = "CONSUME_PASSIVELY";
    /** A lock older than this may have passed to another consumer: orderly consumption pauses until renewed. */
    private static final long MAX_LOCK_AGE_MS = 30_000;

    private final ConsumerOptions options;
    private final ClientRuntime runtime;
    private final ConsumerBrokerApi broker;
    private final OffsetStore offsets;
    private final Heartbeats heartbeats;
    private final Map<String, SubscriptionData> subscriptions = new LinkedHashMap<>();
    private MessageListenerConcurrently concurrentListener;
    private MessageListenerOrderly orderlyListener;
    private Rebalancer rebalancer;
    private QueueLocks locks;
    private OrderlyConsumeService orderly;
    /** null when enableMsgTrace is off. */
    private TraceDispatcher trace;
    private boolean isStarted;
    private long startTimestampMs;

    public VrmqPushConsumer(Vertx vertx, ConsumerOptions options) {
        this.options = options;
        this.runtime = new ClientRuntime(vertx, options);
        this.broker = new ConsumerBrokerApi(runtime, options.getConsumerGroup(), options.getMaxBodyBytes());
        this.offsets = options.getMessageModel() == MessageModel.CLUSTERING ? new BrokerOffsetStore(broker)
            : new LocalFileOffsetStore(vertx, options.getOffsetStoreDir(), runtime.clientId(),
            options.getConsumerGroup());
        this.heartbeats = new Heartbeats(runtime);
    }

    /** @param expression {@code "*"} or tags joined by {@code "||"} */
    public VrmqPushConsumer subscribe(String topic, String expression) {
        requireNotStarted();
        subscriptions.put(topic, SubscriptionData.ofTags(topic, expression, System.currentTimeMillis()));
        return this;
    }

    /**
     * An SQL92 property filter (RocketMQ's grammar: {@code "a > 5 AND TAGS IN ('A', 'B')"}), evaluated by the broker;
     * {@link #start()} fails when the broker does not accept it (CHECK_CLIENT_CONFIG).
     */
    public VrmqPushConsumer subscribeSql(String topic, String sqlExpression) {
        requireNotStarted();
        subscriptions.put(topic, sqlSubscription(topic, sqlExpression));
        return this;
    }

    static SubscriptionData sqlSubscription(String topic, String sqlExpression) {
        return new SubscriptionData(topic, sqlExpression, java.util.Set.of(), java.util.Set.of(),
            System.currentTimeMillis(), "SQL92", false);
    }

    public VrmqPushConsumer registerListener(MessageListenerConcurrently listener) {
        requireNotStarted();
        this.concurrentListener = listener;
        this.orderlyListener = null;
        return this;
    }

    /** Orderly consumption: per queue one batch at a time, in queue order, under the broker's queue lock. */
    public VrmqPushConsumer registerOrderlyListener(MessageListenerOrderly listener) {
        requireNotStarted();
        this.orderlyListener = listener;
        this.concurrentListener = null;
        return this;
    }

    /** Completes once the first rebalance ran (queues may still be unassigned when no route is known yet). */
    public Future<Void> start() {
        requireNotStarted();
        if (subscriptions.isEmpty() || (concurrentListener == null && orderlyListener == null)) {
            return Future.failedFuture(new IllegalStateException("subscribe and register a listener before start"));
        }
        isStarted = true;
        startTimestampMs = System.currentTimeMillis();
        if (options.getMessageModel() == MessageModel.CLUSTERING) {
            String retryTopic = ConsumerTopics.retryTopic(options.getConsumerGroup());
            subscriptions.put(retryTopic, SubscriptionData.ofTags(retryTopic, SubscriptionData.SUB_ALL,
                System.currentTimeMillis()));
        }
        wire();
        return runtime.onContext(() -> offsets.load()
            .compose(loaded -> refreshRoutes())
            .compose(routed -> SubscriptionCheck.check(runtime, options.getConsumerGroup(), subscriptions.values()))
            .compose(checked -> heartbeat())
            .compose(beaten -> refreshRoutes())
            .compose(routed -> rebalancer.rebalance(subscriptions.keySet()))
            .onSuccess(balanced -> startTimers()));
    }

    /** Triggers a rebalance now (as a membership notice does); completes when it ran. */
    public Future<Void> rebalance() {
        return runtime.onContext(() -> rebalancer.rebalance(subscriptions.keySet()));
    }

    /** The queues this consumer currently serves. */
    public Future<Set<MessageQueue>> assignedQueues() {
        return runtime.onContext(() -> Future.succeededFuture(Set.copyOf(rebalancer.processQueues().keySet())));
    }

    /**
     * How often pulling paused, over the queues served now, because a queue held more than pullThresholdForQueue
     * messages or pullThresholdSizeForQueue bytes (flow control); for monitoring.
     */
    public Future<Long> flowControlCount() {
        return runtime.onContext(() -> Future.succeededFuture(rebalancer.processQueues().values().stream()
            .mapToLong(ProcessQueue::flowControlCount).sum()));
    }

    /**
     * Stops pulling, commits every offset, unlocks, sends the trace records still queued (for at most 5 s),
     * unregisters from the brokers and closes the connections.
     */
    public Future<Void> close() {
        if (!isStarted) {
            return runtime.onContext(runtime::close);
        }
        return runtime.onContext(() -> {
            Set<String> brokers = runtime.routes().brokerAddrs(subscriptions.keySet(), false);
            return rebalancer.shutdown()
                .compose(released -> offsets.persistAll(true))
                .compose(persisted -> trace == null ? Future.<Void>succeededFuture() : trace.drain())
                .compose(drained -> heartbeats.unregister(brokers, null, options.getConsumerGroup()))
                .eventually(runtime::close);
        });
    }

    public String clientId() {
        return runtime.clientId();
    }

    private void wire() {
        boolean isOrderly = orderlyListener != null;
        ProducerOptions innerOptions = new ProducerOptions().setProducerGroup(INNER_PRODUCER_GROUP)
            .setNamesrvAddr(options.getNamesrvAddr());
        SendBackService sendBack = new SendBackService(broker,
            new SendPreparation(innerOptions, MessageIdGenerator.forThisProcess()),
            new MessageSender(runtime, innerOptions, new BrokerFaultTable(System::currentTimeMillis)),
            options.getConsumerGroup(), options.effectiveMaxReconsumeTimes());
        trace = options.isEnableMsgTrace()
            ? TraceDispatcher.create(runtime, options, options.getConsumerGroup(), "CONSUME") : null;
        ConsumerTrace consumerTrace = trace == null ? ConsumerTrace.OFF
            : new ConsumerTrace(trace, options.getConsumerGroup());
        ConsumeService consume;
        if (isOrderly) {
            orderly = new OrderlyConsumeService(runtime, orderlyListener, offsets, sendBack,
                options.getMessageModel(), options.getConsumeMessageBatchMaxSize(), options.getSuspendCurrentQueueMs(),
                options.effectiveMaxReconsumeTimes(), consumerTrace);
            consume = orderly;
        } else {
            consume = new ConcurrentConsumeService(runtime, concurrentListener, offsets, sendBack,
                options.getMessageModel(), options.getConsumeMessageBatchMaxSize(), options.getLocalRetryMs(),
                options.getConsumeConcurrency(), consumerTrace);
        }
        PullService pulls = new PullService(runtime, options, broker, offsets, subscriptions::get, consume,
            isOrderly, false);
        locks = new QueueLocks(runtime, broker, isOrderly && options.getMessageModel() == MessageModel.CLUSTERING);
        rebalancer = new Rebalancer(runtime, options, broker, offsets, pulls, locks);
        runtime.onConsumerIdsChanged(group -> {
            if (options.getConsumerGroup().equals(group)) {
                rebalancer.rebalance(subscriptions.keySet());
            }
        });
        DirectConsumer direct = isOrderly ? DirectConsumer.orderly(orderlyListener, System::currentTimeMillis)
            : DirectConsumer.concurrently(concurrentListener, System::currentTimeMillis);
        runtime.onConsumerAdminRequest(new ConsumerAdminProcessor(runtime.json(), options.getConsumerGroup(),
            options.getMaxBodyBytes(), rebalancer, () -> new ConsumerRunningInfoBody.Snapshot(options, isOrderly,
            startTimestampMs, List.copyOf(subscriptions.values()), rebalancer.processQueues(), offsets), direct));
    }

    private void startTimers() {
        runtime.periodic(options.getPollNameServerIntervalMs(), options.getPollNameServerIntervalMs(),
            runtime.routes()::refreshAll);
        runtime.periodic(options.getHeartbeatBrokerIntervalMs(), options.getHeartbeatBrokerIntervalMs(),
            this::heartbeat);
        runtime.periodic(options.getRebalanceIntervalMs(), options.getRebalanceIntervalMs(),
            () -> rebalancer.rebalance(subscriptions.keySet()));
        runtime.periodic(options.getPersistConsumerOffsetIntervalMs(), options.getPersistConsumerOffsetIntervalMs(),
            () -> offsets.persistAll(false));
        if (trace != null) {
            trace.start();
        }
        if (locks.isEnabled()) {
            runtime.periodic(options.getLockRenewIntervalMs(), options.getLockRenewIntervalMs(), this::renewLocks);
        }
    }

    private void renewLocks() {
        long nowMs = System.currentTimeMillis();
        rebalancer.processQueues().values().forEach(queue -> {
            if (queue.isLockExpired(nowMs, MAX_LOCK_AGE_MS)) {
                queue.setLocked(false, nowMs);
            }
        });
        locks.renew(rebalancer.processQueues(), orderly::consumeNext);
    }

    private Future<Void> refreshRoutes() {
        List<Future<?>> lookups = new ArrayList<>();
        for (String topic : subscriptions.keySet()) {
            if (runtime.routes().cached(topic) == null) {
                lookups.add(runtime.routes().refresh(topic));
            }
        }
        return Future.join(lookups).<Void>mapEmpty().otherwiseEmpty();
    }

    private Future<Void> heartbeat() {
        ConsumerData consumer = new ConsumerData(options.getConsumerGroup(), CONSUME_PASSIVELY,
            options.getMessageModel().name(), options.getConsumeFromWhere().name(),
            Set.copyOf(subscriptions.values()), false);
        HeartbeatData heartbeat = new HeartbeatData(runtime.clientId(), Set.of(), Set.of(consumer), 0, false);
        return heartbeats.send(heartbeat, runtime.routes().brokerAddrs(subscriptions.keySet(), false));
    }

    private void requireNotStarted() {
        if (isStarted) {
            throw new IllegalStateException("consumer " + runtime.clientId() + " already started");
        }
    }
}
