package io.vrmq.broker.processor;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.MessageStore;
import io.vrmq.store.TimeBoundary;

import java.util.Map;

/**
 * Offsets: QUERY_CONSUMER_OFFSET (14), UPDATE_CONSUMER_OFFSET (15), SEARCH_OFFSET_BY_TIMESTAMP (29),
 * GET_MAX_OFFSET (30), GET_MIN_OFFSET (31), GET_EARLIEST_MSG_STORETIME (32). Store look-ups run on a reader thread.
 */
public final class OffsetProcessor {
    private final BrokerContext broker;

    public OffsetProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.QUERY_CONSUMER_OFFSET, this::queryConsumerOffset);
        table.register(RequestCode.UPDATE_CONSUMER_OFFSET, this::updateConsumerOffset);
        table.register(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, this::searchByTimestamp);
        table.register(RequestCode.GET_MAX_OFFSET, (connection, request) -> offsetReply(request,
            store -> store.getMaxOffsetInQueue(topic(request), queueId(request))));
        table.register(RequestCode.GET_MIN_OFFSET, (connection, request) -> offsetReply(request,
            store -> store.getMinOffsetInQueue(topic(request), queueId(request))));
        table.register(RequestCode.GET_EARLIEST_MSG_STORETIME, (connection, request) -> broker.store()
            .read(() -> broker.store().store().getEarliestMessageTime(topic(request), queueId(request)))
            .map(time -> RemotingCommand.success(request, Map.of("timestamp", Long.toString(time)), null)));
    }

    /**
     * A group with no committed offset gets 0 while the queue still starts at 0 (a new topic: consume it all),
     * else QUERY_NOT_FOUND so that the client applies its consumeFromWhere, as RocketMQ answers.
     */
    private Future<RemotingCommand> queryConsumerOffset(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String group = header.requiredString("consumerGroup");
        String topic = header.requiredString("topic");
        int queueId = header.requiredInt("queueId");
        long offset = broker.offsets().query(group, topic, queueId);
        if (offset >= 0) {
            return Future.succeededFuture(offsetResponse(request, offset));
        }
        boolean isZeroIfNotFound = header.optionalBoolean("setZeroIfNotFound", true);
        return broker.store().read(() -> broker.store().store().getMinOffsetInQueue(topic, queueId))
            .map(minOffset -> isZeroIfNotFound && minOffset <= 0 ? offsetResponse(request, 0)
                : RemotingCommand.failure(request, ResponseCode.QUERY_NOT_FOUND,
                "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first"));
    }

    private Future<RemotingCommand> updateConsumerOffset(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        broker.offsets().commit(header.requiredString("consumerGroup"), header.requiredString("topic"),
            header.requiredInt("queueId"), header.requiredLong("commitOffset"));
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> searchByTimestamp(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        long timestamp = header.requiredLong("timestamp");
        String boundary = header.optionalString("boundaryType");
        TimeBoundary which = "upper".equalsIgnoreCase(boundary) ? TimeBoundary.UPPER : TimeBoundary.LOWER;
        return offsetReply(request, store -> store.getOffsetInQueueByTime(topic(request), queueId(request),
            timestamp, which));
    }

    private Future<RemotingCommand> offsetReply(RemotingCommand request, OffsetLookup lookup) {
        topic(request);
        queueId(request);
        return broker.store().read(() -> lookup.find(broker.store().store()))
            .map(offset -> offsetResponse(request, offset));
    }

    private static RemotingCommand offsetResponse(RemotingCommand request, long offset) {
        return RemotingCommand.success(request, Map.of("offset", Long.toString(offset)), null);
    }

    private static String topic(RemotingCommand request) {
        return request.header().requiredString("topic");
    }

    private static int queueId(RemotingCommand request) {
        return request.header().requiredInt("queueId");
    }

    @FunctionalInterface
    private interface OffsetLookup {
        long find(MessageStore store);
    }
}
