package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * ACK_MESSAGE (200051) and BATCH_ACK_MESSAGE (200151), RocketMQ's AckMessageProcessor: checks topic (TOPIC_NOT_EXIST),
 * queue (MESSAGE_ILLEGAL) and offset (NO_MESSAGE outside the queue), then acks through {@link AckService}; the
 * answer is SUCCESS once the ack is durable. A batch skips entries for unknown topics and offsets outside their
 * queue, as RocketMQ does. Runs on the broker's context.
 */
public final class AckMessageProcessor {
    private final BrokerContext broker;
    private final AckService acks;
    private final PopChecks checks;

    AckMessageProcessor(BrokerContext broker, AckService acks) {
        this.broker = broker;
        this.acks = acks;
        this.checks = new PopChecks(broker);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.ACK_MESSAGE, this::ack);
        table.register(RequestCode.BATCH_ACK_MESSAGE, this::batchAck);
    }

    private Future<RemotingCommand> ack(RemotingConnection connection, RemotingCommand request) {
        AckRequest ack = AckRequest.decodeAck(request);
        checks.ackedTopic(ack.topic(), ack.queueId(), connection);
        checks.requireOffsetInQueue(ack.topic(), ack.queueId(), ack.offset(), true);
        ExtraInfo receipt = ExtraInfo.parse(ack.extraInfo());
        QueueKey queue = new QueueKey(ack.consumerGroup(), ack.topic(), ack.queueId());
        return acks.ack(queue, receipt, List.of(ack.offset()))
            .map(done -> RemotingCommand.response(request, ResponseCode.SUCCESS, null, null, null));
    }

    private Future<RemotingCommand> batchAck(RemotingConnection connection, RemotingCommand request) {
        BatchAckBody body = BatchAckBody.decode(broker.json(), request.body());
        if (body == null) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.NO_MESSAGE, null));
        }
        List<Future<Void>> done = new ArrayList<>();
        for (BatchAckBody.Entry entry : body.acks()) {
            String topic = PopNames.realTopic(entry.topic(), entry.consumerGroup(), entry.retryMarker() == null
                ? PopNames.NORMAL_MARKER : entry.retryMarker());
            TopicConfig config = topic == null ? null : broker.topics().get(topic);
            if (config == null || entry.consumerGroup() == null) {
                continue;
            }
            List<Long> offsets = offsetsInQueue(topic, entry);
            if (!offsets.isEmpty()) {
                ExtraInfo receipt = new ExtraInfo(entry.startOffset(), entry.popTime(), entry.invisibleTime(),
                    entry.reviveQueueId(), entry.retryMarker(), body.brokerName(), entry.queueId(),
                    ExtraInfo.NO_QUEUE_OFFSET);
                done.add(acks.ack(new QueueKey(entry.consumerGroup(), topic, entry.queueId()), receipt, offsets));
            }
        }
        return Future.all(done).map(all -> RemotingCommand.response(request, ResponseCode.SUCCESS, null, null,
            null));
    }

    /** The batch entry's offsets that lie inside their queue (in-memory bounds). */
    private List<Long> offsetsInQueue(String topic, BatchAckBody.Entry entry) {
        long min = broker.store().store().getMinOffsetInQueue(topic, entry.queueId());
        long max = broker.store().store().getMaxOffsetInQueue(topic, entry.queueId());
        BitSet bits = entry.offsets();
        List<Long> offsets = new ArrayList<>();
        for (int i = bits.nextSetBit(0); i >= 0 && i < Integer.MAX_VALUE; i = bits.nextSetBit(i + 1)) {
            long offset = entry.startOffset() + i;
            if (offset >= min && offset <= max) {
                offsets.add(offset);
            }
        }
        return offsets;
    }
}
