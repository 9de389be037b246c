package io.vrmq.broker.pop;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.processor.DeliveryRouting;
import io.vrmq.broker.processor.TopicResolver;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POP consumption in the broker, wired: the processors of codes 200050-200055, 200151 and 400-402, the long-poll
 * holds, and the master-only part, which {@link #activate()} starts (rebuild the in-flight state from the revive
 * log, then serve POP and revive) and {@link #deactivate()} stops (a master becoming slave, or a stop). Built once by
 * the broker verticle; every method runs on the broker's context except {@link #onDispatched}.
 */
public final class PopServices {
    private static final Logger log = LoggerFactory.getLogger(PopServices.class);

    private final BrokerContext broker;
    private final PopConfig config;
    private final PopState state;
    private final PopHolds popHolds;
    private final PopHolds notificationHolds;
    private final ReviveLog reviveLog;
    private final ReviveRecordCodec codec;
    private final PopMeters meters;
    private final PopService pops;
    private final AckService acks;
    private final ReviveService revive;
    private final RequestModeTable modes;
    private final TopicQueues topicQueues;
    private int generation;

    public PopServices(Vertx vertx, Context context, BrokerContext broker, PopConfig config, RequestModeTable modes,
                       RemotingClient namesrvClient) {
        this.broker = broker;
        this.config = config;
        this.modes = modes;
        this.state = new PopState(broker);
        this.popHolds = new PopHolds(vertx, context, config.popPollingSize(), config.maxPopPollingSize());
        this.notificationHolds = new PopHolds(vertx, context, config.popPollingSize(), config.maxPopPollingSize());
        this.codec = new ReviveRecordCodec(broker.json().mapper());
        this.reviveLog = new ReviveLog(broker, PopNames.reviveTopic(broker.config().brokerClusterName()), codec);
        this.meters = new PopMeters(broker.metrics().registry(), broker.popInflight(),
            () -> popHolds.heldCount() + notificationHolds.heldCount());
        this.pops = new PopService(broker, config, state, reviveLog, meters);
        this.acks = new AckService(broker, state, reviveLog, meters,
            queue -> popHolds.notifyArrived(queue.topic(), queue.group(), queue.queueId()));
        TopicResolver topics = new TopicResolver(broker);
        this.revive = new ReviveService(vertx, broker, config, state, reviveLog,
            new RevivedCopies(broker, config, new DeliveryRouting(broker, topics)), meters);
        this.topicQueues = new TopicQueues(broker, namesrvClient);
        // A pop that skipped a queue another pop held went to wait: it may have missed a message there.
        state.onContendedUnlock(queue -> {
            String origin = PopNames.originTopic(queue.topic(), queue.group());
            popHolds.notifyArrived(origin != null ? origin : queue.topic(), queue.group(),
                origin != null ? PopMessageRequest.ALL_QUEUES : queue.queueId());
        });
    }

    public void registerInto(ProcessorTable.Builder table) {
        new PopMessageProcessor(broker, config, pops, popHolds).registerInto(table);
        new AckMessageProcessor(broker, acks).registerInto(table);
        new ChangeInvisibleTimeProcessor(broker, config, acks).registerInto(table);
        new PeekMessageProcessor(broker, config).registerInto(table);
        new NotificationProcessor(broker, config, state, notificationHolds).registerInto(table);
        new PollingInfoProcessor(broker, popHolds).registerInto(table);
        new QueryAssignmentProcessor(broker, config, modes, topicQueues).registerInto(table);
    }

    /** Store dispatcher thread: a message reached {@code topic}; wakes held pops and notifications. */
    public void onDispatched(String topic) {
        popHolds.onDispatched(topic);
        notificationHolds.onDispatched(topic);
    }

    /**
     * This broker is master: ensures the revive topic, rebuilds the in-flight state and starts serving POP and
     * reviving. Completes when POP is served (at once when it already is).
     */
    public Future<Void> activate() {
        if (state.status() != PopState.Status.INACTIVE) {
            return Future.succeededFuture();
        }
        int activation = ++generation;
        state.recovering();
        String reviveTopic = reviveLog.reviveTopic();
        TopicConfig existing = broker.topics().putIfAbsent(TopicConfig.of(reviveTopic, config.reviveQueueNum(),
            Permission.READ_WRITE));
        int reviveQueues = Math.max(config.reviveQueueNum(), existing.readQueueNums());
        return new InflightRecovery(broker, reviveTopic, codec)
            .recover(reviveQueues, broker.popInflight(), (queue, offset) ->
                broker.offsets().commit(PopNames.REVIVE_GROUP, reviveTopic, queue, offset))
            .map(table -> {
                if (activation == generation && state.status() == PopState.Status.RECOVERING) {
                    state.activate(table);
                    revive.start();
                }
                return (Void) null;
            })
            .onFailure(error -> {
                log.error("POP in-flight state could not be rebuilt from {}; POP stays off", reviveTopic, error);
                if (activation == generation) {
                    state.deactivate();
                }
            });
    }

    /** This broker stops being master (or stops): no more POP or revive; held requests answer at once. */
    public Future<Void> deactivate() {
        generation++;
        state.deactivate();
        popHolds.wakeAll();
        notificationHolds.wakeAll();
        return revive.stop();
    }

    /** POP and NOTIFICATION requests held now (any thread). */
    public int heldCount() {
        return popHolds.heldCount() + notificationHolds.heldCount();
    }
}
