package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TimeBoundary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Moves a group's offsets on a topic to a point in time (timestamp -1: the end of each queue), commits them on the
 * broker, and tells every online member with a oneway RESET_CONSUMER_CLIENT_OFFSET (220) so that its in-memory
 * offsets follow (otherwise its next offset commit would undo the reset). Without isForce an offset only moves back,
 * as RocketMQ's client-side reset does. Shared by INVOKE_BROKER_TO_RESET_OFFSET (222, {@link ResetOffsetProcessor})
 * and the HTTP admin API. Refusals are failed futures of {@link RemotingCommandException} with RocketMQ's codes and
 * remarks; queue offsets are looked up on the reader pool, commits happen on the caller's thread.
 */
public final class OffsetReset {
    private static final Logger log = LoggerFactory.getLogger(OffsetReset.class);

    private final BrokerContext broker;

    public OffsetReset(BrokerContext broker) {
        this.broker = broker;
    }

    /** The offsets committed, by queue. */
    public Future<Map<MessageQueue, Long>> reset(Request reset, String requester) {
        RemotingCommandException refusal = refusal(reset);
        if (refusal != null) {
            return Future.failedFuture(refusal);
        }
        TopicConfig topic = broker.topics().get(reset.topic());
        log.info("reset offsets of group {} on topic {} to timestamp {} (force {}), requested by {}", reset.group(),
            reset.topic(), reset.timestamp(), reset.isForce(), requester);
        return broker.store().read(() -> targetOffsets(broker.store().store(), reset, topic.readQueueNums()))
            .map(targets -> {
                Map<MessageQueue, Long> offsetTable = commit(reset, targets);
                notifyMembers(reset, QueueKeyedJson.body(broker.json(), Map.of(), offsetTable));
                return offsetTable;
            });
    }

    /** RocketMQ's checks and remarks, or null when the reset may go ahead. */
    private RemotingCommandException refusal(Request reset) {
        if (!broker.role().current().isMaster()) {
            return new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "Can not reset offset in slave broker");
        }
        if (broker.topics().get(reset.topic()) == null) {
            return new RemotingCommandException(ResponseCode.TOPIC_NOT_EXIST, "Topic " + reset.topic()
                + " does not exist");
        }
        if (broker.groups().get(reset.group()) == null) {
            return new RemotingCommandException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "Group " + reset.group()
                + " does not exist");
        }
        return null;
    }

    /** Queue id → offset to move to, with progress lines when it takes long. Runs on a reader thread. */
    private static Map<Integer, Long> targetOffsets(MessageStore store, Request reset, int readQueueNums) {
        Map<Integer, Long> targets = new TreeMap<>();
        List<Integer> queueIds = reset.queueId() >= 0 ? List.of(reset.queueId())
            : IntStream.range(0, readQueueNums).boxed().toList();
        ResetProgress progress = new ResetProgress("resetting offsets of group " + reset.group() + " on topic "
            + reset.topic(), queueIds.size(), System::currentTimeMillis);
        for (int queueId : queueIds) {
            targets.put(queueId, targetOffset(store, reset, queueId));
            progress.at(targets.size());
        }
        progress.done();
        return targets;
    }

    private static long targetOffset(MessageStore store, Request reset, int queueId) {
        if (reset.queueId() >= 0 && reset.offset() != null && reset.offset() != -1) {
            return checkedOffset(store, reset, queueId);
        } else if (reset.timestamp() < 0) {
            return store.getMaxOffsetInQueue(reset.topic(), queueId);
        }
        return Math.max(0, store.getOffsetInQueueByTime(reset.topic(), queueId, reset.timestamp(),
            TimeBoundary.LOWER));
    }

    private static long checkedOffset(MessageStore store, Request reset, int queueId) {
        long min = store.getMinOffsetInQueue(reset.topic(), queueId);
        long max = store.getMaxOffsetInQueue(reset.topic(), queueId);
        if (reset.offset() < min || reset.offset() > max + 1) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, String.format(
                "Target offset %d not in consume queue range [%d-%d]", reset.offset(), min, max));
        }
        return reset.offset();
    }

    private Map<MessageQueue, Long> commit(Request reset, Map<Integer, Long> targets) {
        Map<MessageQueue, Long> offsetTable = new TreeMap<>();
        targets.forEach((queueId, target) -> {
            long committed = broker.offsets().query(reset.group(), reset.topic(), queueId);
            long offset = reset.isForce() || committed < 0 || target < committed ? target : committed;
            broker.offsets().commit(reset.group(), reset.topic(), queueId, offset);
            offsetTable.put(new MessageQueue(broker.config().brokerName(), queueId, reset.topic()), offset);
        });
        return offsetTable;
    }

    private void notifyMembers(Request reset, Buffer body) {
        ConsumerGroupInfo group = broker.clients().consumerGroup(reset.group());
        if (group == null) {
            return;
        }
        RemotingCommand notify = RemotingCommand.request(RequestCode.RESET_CONSUMER_CLIENT_OFFSET, Map.of(
            "topic", reset.topic(), "group", reset.group(), "timestamp", Long.toString(reset.timestamp()),
            "isForce", Boolean.toString(reset.isForce())), body);
        for (ClientChannel member : group.channels()) {
            member.connection().invokeOneway(notify).onFailure(error -> log.warn(
                "reset offset notice to {} of group {} failed: {}", member.clientId(), reset.group(),
                error.toString()));
        }
    }

    /**
     * What to reset, as ResetOffsetRequestHeader: queueId -1 = every readable queue; offset (null or -1: none) is
     * used only with a queueId.
     */
    public record Request(String topic, String group, long timestamp, boolean isForce, int queueId, Long offset) {
    }
}
