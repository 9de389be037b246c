package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.MessageStore;

import java.util.Map;

/**
 * NOTIFICATION (200054), RocketMQ's NotificationProcessor: "would a pop find something?" without popping. It looks
 * at the queue (all queues for -1), then the group's POP retry topic, and answers SUCCESS with {@code hasMsg}; with
 * nothing there and a poll time it is held like a pop (its own {@link PopHolds}, same limits) and answered when a
 * message arrives or the time is up ({@code hasMsg=false}; {@code pollingFull=true} when too many are held). An
 * orderly queue blocked by unacked messages counts as empty. Tag filters are not applied (RocketMQ's
 * useMessageFilterForNotification is off by default). Queue bounds are in-memory reads; the broker's context.
 */
public final class NotificationProcessor {
    private final BrokerContext broker;
    private final PopConfig config;
    private final PopState state;
    private final PopHolds holds;
    private final PopChecks checks;

    NotificationProcessor(BrokerContext broker, PopConfig config, PopState state, PopHolds holds) {
        this.broker = broker;
        this.config = config;
        this.state = state;
        this.holds = holds;
        this.checks = new PopChecks(broker);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.NOTIFICATION, this::notification);
    }

    /** The header fields a notification reads. */
    private record Notification(String group, String topic, int queueId, long pollTime, long bornTime,
                                boolean isOrder, String attemptId) {
        static Notification decode(RemotingCommand request, long nowMs) {
            HeaderFields header = request.header();
            int queueId = header.requiredInt("queueId");
            long bornTime = header.requiredLong("bornTime");
            return new Notification(header.requiredString("consumerGroup"), header.requiredString("topic"),
                queueId < 0 ? PopMessageRequest.ALL_QUEUES : queueId, header.requiredLong("pollTime"),
                bornTime == 0 ? nowMs : bornTime, header.optionalBoolean("order", false),
                header.optionalString("attemptId"));
        }
    }

    private Future<RemotingCommand> notification(RemotingConnection connection, RemotingCommand request) {
        Notification notification = Notification.decode(request, System.currentTimeMillis());
        Promise<RemotingCommand> reply = Promise.promise();
        run(connection, request, notification, reply);
        return reply.future();
    }

    private void run(RemotingConnection connection, RemotingCommand request, Notification notification,
                     Promise<RemotingCommand> reply) {
        boolean hasMessage;
        try {
            checks.requireBrokerReadable("peeking");
            TopicConfig topic = checks.readableTopic(notification.topic(), notification.queueId(), connection);
            checks.consumingGroup(notification.group());
            hasMessage = hasMessage(topic, notification);
        } catch (RemotingCommandException e) {
            reply.complete(RemotingCommand.failure(request, e.responseCode(), e.getMessage()));
            return;
        } catch (RuntimeException e) {
            reply.fail(e);
            return;
        }
        boolean isPollingFull = false;
        if (!hasMessage && notification.pollTime() > 0) {
            PopHolds.Outcome held = holds.hold(new PopHolds.PollKey(notification.topic(), notification.group(),
                notification.queueId()), notification.bornTime() + notification.pollTime(), () -> {
                    if (!connection.isClosed()) {
                        run(connection, request, notification, reply);
                    }
                });
            if (held == PopHolds.Outcome.HELD) {
                return;
            }
            isPollingFull = held == PopHolds.Outcome.FULL;
        }
        reply.complete(RemotingCommand.response(request, ResponseCode.SUCCESS, null, Map.of(
            "hasMsg", Boolean.toString(hasMessage), "pollingFull", Boolean.toString(isPollingFull)), null));
    }

    private boolean hasMessage(TopicConfig topic, Notification notification) {
        if (hasMessageIn(topic, notification.queueId(), notification, notification.isOrder())) {
            return true;
        }
        String retryName = PopNames.retryTopic(topic.topicName(), notification.group(), config.enableRetryTopicV2());
        TopicConfig retry = broker.topics().get(retryName);
        if (retry != null && hasMessageIn(retry, PopMessageRequest.ALL_QUEUES, notification, false)) {
            return true;
        }
        TopicConfig retryV1 = config.enableRetryTopicV2() && config.retrieveMessageFromPopRetryTopicV1()
            ? broker.topics().get(PopNames.retryTopic(topic.topicName(), notification.group(), false)) : null;
        return retryV1 != null && hasMessageIn(retryV1, PopMessageRequest.ALL_QUEUES, notification, false);
    }

    private boolean hasMessageIn(TopicConfig topic, int queueId, Notification notification, boolean isOrder) {
        int first = queueId < 0 ? 0 : queueId;
        int end = queueId < 0 ? topic.readQueueNums() : queueId + 1;
        MessageStore store = broker.store().store();
        InflightTable table = state.tableIfActive();
        for (int id = first; id < end; id++) {
            QueueKey queue = new QueueKey(notification.group(), topic.topicName(), id);
            if (isOrder && table != null && table.order(queue) != null
                && table.order(queue).blocks(notification.attemptId(), System.currentTimeMillis())) {
                continue;
            }
            long offset = broker.offsets().query(notification.group(), topic.topicName(), id);
            if (offset < 0) {
                offset = store.getMinOffsetInQueue(topic.topicName(), id);
            }
            if (store.getMaxOffsetInQueue(topic.topicName(), id) > offset) {
                return true;
            }
        }
        return false;
    }
}
